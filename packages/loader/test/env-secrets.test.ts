import { describe, expect, it } from 'vitest'
import { memorySession } from '@rein/agent'
import { checkExamples, ConfigErrors, loadExamples, loadHarness, readConfig } from '../src/index.js'
import { harnessProject } from './helpers.js'

const SECRET = 'sk-live-abcdef123456'
const env = { SECRET_TOKEN: SECRET }

/** What `work` rejects with, checked to be `ConfigErrors`. */
async function errorsOf(work: Promise<unknown>): Promise<ConfigErrors> {
  const error = await work.then(() => undefined, (reason: unknown) => reason)
  expect(error).toBeInstanceOf(ConfigErrors)
  return error as ConfigErrors
}

/** Everything an error could show: its message, each error's message, detail, entry, stack and cause. */
function everything(error: ConfigErrors): string {
  return [error.message, error.stack, ...error.errors.flatMap((each) => [each.message, each.detail, each.entry, each.stack, String(each.cause)])].join('\n')
}

describe('values put in by ${env:NAME}', () => {
  it('are redacted in the errors of a plugin config, the agent section, startupTimeoutMs and use, with no cause left', async () => {
    const { file } = await harnessProject(() => [
      'plugins:',
      "  - { use: '@rein/plugin-retry', config: { maxAttempts: '${env:SECRET_TOKEN}' } }",
      "  - use: '${env:SECRET_TOKEN}'",
      "agent: { maxTurns: '${env:SECRET_TOKEN}' }",
      "startupTimeoutMs: '${env:SECRET_TOKEN}'",
    ])
    const error = await errorsOf(loadHarness(file, { env, inspectOnly: true }))
    expect(error.errors.map((each) => each.detail)).toEqual([
      'maxAttempts must be a number (got "[REDACTED]")',
      expect.stringMatching(/^cannot find package "\[REDACTED\]"; looked in .*\(npm install \[REDACTED\]\)/),
      'maxTurns must be a positive integer (got "[REDACTED]")',
      expect.stringMatching(/^startupTimeoutMs must be a whole number of milliseconds from 1 to \d+ \(got "\[REDACTED\]"\)/),
    ])
    expect(everything(error)).not.toContain(SECRET)
    expect(error.errors.map((each) => each.cause)).toEqual([undefined, undefined, undefined, undefined])
  })

  it('are redacted where they are part of a longer string, and in readConfig', async () => {
    const { file } = await harnessProject(() => ["agent: { maxTurns: 'turns-${env:SECRET_TOKEN}-x' }", 'session: 7'])
    const error = await errorsOf(readConfig(file, { env }))
    expect(error.errors.map((each) => each.detail)).toEqual([
      'maxTurns must be a positive integer (got "turns-[REDACTED]-x")',
      '"session" must be the path of a JSONL session file',
    ])
    expect(everything(error)).not.toContain(SECRET)
  })

  it('are redacted in the warning of an optional entry left out', async () => {
    const { file, fx } = await harnessProject((fx) => [
      'plugins:',
      `  - { use: ${fx('configured.ts')}, optional: true, config: { maxAttempts: '\${env:SECRET_TOKEN}' } }`,
    ])
    const harness = await loadHarness(file, { env, inspectOnly: true })
    try {
      expect(harness.warnings).toEqual([expect.stringContaining('maxAttempts must be a number (got "[REDACTED]"); this plugin is NOT active')])
      expect(harness.warnings.join('\n')).not.toContain(SECRET)
    } finally {
      await harness.dispose()
    }
  })

  it('are redacted in what harness.agent and agentFor throw', async () => {
    const { file, fx } = await harnessProject((fx) => [
      `provider: { use: ${fx('provider.ts')}, config: { reply: hi } }`,
      `tools: [${fx('echo-tool.ts')}]`,
      'agent:',
      `  system: '\${env:TOOL}({"text": "a"})'`,
    ])
    const tool = 'echo_sk_live_abcdef123456'
    const harness = await loadHarness(file, { env: { TOOL: tool } })
    try {
      const thrown = (read: () => unknown) => { try { read() } catch (error) { return error } throw new Error('did not throw') }
      for (const error of [thrown(() => harness.agent), thrown(() => harness.agentFor(memorySession()))]) {
        expect(error).toBeInstanceOf(ConfigErrors)
        expect((error as ConfigErrors).message).toMatch(/rein\.yaml:4 agent\.system \[REDACTED\]: unknown tool; the harness has echo$/)
        expect(everything(error as ConfigErrors)).not.toContain(tool)
      }
    } finally {
      await harness.dispose()
    }
  })

  it('are redacted in the problems checkExamples and loadExamples report, and no parser quotes a cut piece of one', async () => {
    const { file, fx } = await harnessProject((fx) => [
      'tools:',
      `  - use: ${fx('echo-tool.ts')}`,
      'agent:',
      '  system: |',
      '    echo({"text": "${env:SECRET_TOKEN}", "times": "2"})',
      '    echo({"text": ${env:SECRET_TOKEN}})',
      '    ```json',
      '    { "tool": "echo", "arguments": ${env:SECRET_TOKEN} }',
      '    ```',
      '    ```json',
      '    { "tool": "${env:SECRET_TOKEN}", "arguments": {} }',
      '    ```',
    ])
    const harness = await loadHarness(file, { env })
    try {
      const { problems } = await checkExamples(harness)
      expect(problems).toHaveLength(4)
      expect(problems[3]!.message).toContain('[REDACTED]')
      const loaded = await loadExamples(harness)
      const shown = [...problems, ...loaded.problems].flatMap((p) => [p.message, p.detail, p.label]).join('\n')
      expect(shown).not.toContain(SECRET.slice(0, 8))
      expect(shown).toContain('not valid JSON')
    } finally {
      await harness.dispose()
    }
  })

  it('are not redacted when shorter than 4 characters, as that would garble the message', async () => {
    const { file } = await harnessProject(() => ["agent: { maxTurns: '${env:TURNS}', maxParallelToolCalls: '${env:FOUR}' }"])
    const error = await errorsOf(readConfig(file, { env: { TURNS: '1.5', FOUR: 'four' } }))
    expect(error.errors.map((each) => each.detail)).toEqual([
      'maxTurns must be a positive integer (got "1.5")',
      'maxParallelToolCalls must be a positive integer (got "[REDACTED]")',
    ])
  })

  it('are only those of the load at hand: the same text written in another file is quoted', async () => {
    const secretFile = (await harnessProject(() => ["agent: { maxTurns: '${env:SECRET_TOKEN}' }"])).file
    const plainFile = (await harnessProject(() => [`agent: { maxTurns: '${SECRET}' }`])).file
    const [secret, plain] = await Promise.all([errorsOf(readConfig(secretFile, { env })), errorsOf(readConfig(plainFile, { env }))])
    expect(secret.errors[0]!.detail).toBe('maxTurns must be a positive integer (got "[REDACTED]")')
    expect(plain.errors[0]!.detail).toBe(`maxTurns must be a positive integer (got "${SECRET}")`)
  })
})
