/**
 * The agent's system prompt is `agent.system` followed by the few-shot examples, exactly as
 * `rein check` checked them; an example its tool rejects means no agent at all.
 */
import { join } from 'node:path'
import { writeFile } from 'node:fs/promises'
import { scripted, textMessage } from '@rein/testing'
import { describe, expect, it } from 'vitest'
import { checkExamples, ConfigErrors, createHarness, loadHarness } from '../src/index.js'
import * as echoTool from './fixtures/echo-tool.js'
import { fixture, project } from './helpers.js'

const FEW_SHOT = [
  '- tool: echo',
  '  arguments: { text: hello }',
  '- role: user',
  '  content: say it twice',
  '- role: assistant',
  '  content: Twice, then once more.',
  '  toolCalls:',
  '    - id: e1',
  '      name: echo',
  '      arguments: \'{"text": "a", "times": 2}\'',
  '    - { id: e2, name: echo, arguments: { text: "${e1.result}" } }',
].join('\n')

/** A project with the echo tool, `agent.system` as a block literal, and one example file. */
async function load(system: string[], examples = FEW_SHOT) {
  const dir = await project({ 'examples/few-shot.yaml': examples })
  const file = join(dir, 'rein.yaml')
  await writeFile(file, [
    'tools:',
    `  - use: ${fixture(dir, 'echo-tool.ts')}`,
    'agent:',
    '  system: |',
    ...system.map((line) => `    ${line}`),
    'examples: [./examples/few-shot.yaml]',
  ].join('\n'))
  const provider = scripted([textMessage('ok')])
  return { dir, file, provider, harness: await loadHarness(file, { provider }) }
}

describe('the system prompt', () => {
  it('reaches the model as agent.system, then the examples exactly as checked', async () => {
    const { harness, provider } = await load(['You echo things.', 'echo({"text": "inline"})'])
    expect(await checkExamples(harness)).toEqual({ checked: 4, inline: 1, problems: [] })
    expect((await harness.agent.run('go')).kind).toBe('completed')
    expect(provider.requests[0].messages[0]).toEqual({
      role: 'system',
      content: [
        'You echo things.',
        'echo({"text": "inline"})',
        '',
        '## Tool call examples',
        'One call per line: the tool name, then its arguments as JSON.',
        'Calls indented under "In one message:" are made together in one reply; "<id>:" names a call that others may reference.',
        'echo {"text":"hello"}',
        'In one message: "Twice, then once more."',
        '  e1: echo {"text":"a","times":2}',
        '  e2: echo {"text":"${e1.result}"}',
      ].join('\n'),
    })
    await harness.dispose()
  })

  it('is agent.system alone when there are no examples', async () => {
    const { harness, provider } = await load(['You echo things.'], '')
    await harness.agent.run('go')
    expect(provider.requests[0].messages[0]).toEqual({ role: 'system', content: 'You echo things.\n' })
    await harness.dispose()
  })

  it('builds no agent when an example does not fit its tool, naming every one as rein check does', async () => {
    const { dir, file, harness, provider } = await load(['You echo things.', 'echo({"text": 5})'], '- tool: echo\n  arguments: { times: 2 }\n')
    const lines = [
      `${file}:6 agent.system echo: /text: must be string`,
      `${join(dir, 'examples/few-shot.yaml')}:2 example[0] echo: missing required property "text"`,
    ]
    expect((await checkExamples(harness)).problems.map((p) => p.message)).toEqual(lines)
    let thrown: unknown
    try {
      void harness.agent
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ConfigErrors)
    expect((thrown as ConfigErrors).errors.map((e) => e.message).sort()).toEqual([...lines].sort())
    expect(provider.requests).toEqual([])
    await harness.dispose()
  })

  it('checks the inline examples of a system prompt given in code, by their line in it', async () => {
    const harness = await createHarness({
      provider: scripted([textMessage('ok')]),
      tools: [echoTool],
      agent: { system: 'Echo.\necho({"txt": "x"})' },
    })
    expect(() => harness.agent).toThrow('agent.system line 2 echo: missing required property "text"')
    await harness.dispose()
  })
})
