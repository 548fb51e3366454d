import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { memorySession } from '@rein/agent'
import { loadHarness, readConfig } from '../src/index.js'
import { fixture, harnessProject, project } from './helpers.js'

describe('loadHarness', () => {
  it('applies plugins in file order: the first listed is the outermost', async () => {
    const { file } = await harnessProject((fx) => [
      'plugins:',
      `  - use: ${fx('outer.ts')}`,
      `  - use: ${fx('middle.js')}`,
      `  - use: ${fx('inner.mjs')}`,
      'tools:',
      `  - use: ${fx('echo-tool.ts')}`,
    ])
    const harness = await loadHarness(file)
    expect(harness.ctx.tools.chain('tools/execute')).toEqual(['outer', 'middle', 'inner'])
    const result = await harness.ctx.tools.execute({ id: 'c1', name: 'echo', arguments: { text: 'hi' } })
    expect(result).toMatchObject({ isError: false, value: 'hi' })
    expect((result as { meta?: { order?: string[] } }).meta?.order)
      .toEqual(['outer:in', 'middle:in', 'inner:in', 'inner:out', 'middle:out', 'outer:out'])
    await harness.dispose()
  })

  it('loads a local TypeScript plugin from the config folder and resolves ./ strings in its config', async () => {
    const { file, dir } = await harnessProject((fx) => [
      'plugins:',
      '  - use: ./policies/no-rm.ts',
      `  - use: ${fx('configured.ts')}`,
      '    config:',
      '      dir: ./data',
      '      here: .',
      '      token: ${env:REIN_TEST_TOKEN}',
      '      paths: [../up, plain, ./x/y]',
    ], {
      'policies/no-rm.ts': [
        'interface Exec { name: string }',
        'export const name: string = "no-rm"',
        'export const inject = ["tools"]',
        'export function apply(ctx: any): void {',
        '  ctx.tools.guard((exec: Exec) => exec.name === "show_config" ? undefined : `${exec.name} is not allowed`)',
        '}',
      ].join('\n'),
    })
    const harness = await loadHarness(file, { env: { REIN_TEST_TOKEN: 't0k' } })
    expect(harness.ctx.tools.chain('guards')).toEqual(['no-rm'])
    const result = await harness.ctx.tools.execute({ id: 'c1', name: 'show_config', arguments: {} })
    expect(result).toMatchObject({
      isError: false,
      value: { dir: join(dir, 'data'), here: dir, token: 't0k', paths: [join(dir, '../up'), 'plain', join(dir, 'x/y')], maxAttempts: 3 },
    })
    await harness.dispose()
  })

  it('dispose removes every hook, guard and tool the harness registered', async () => {
    const { file } = await harnessProject((fx) => ['plugins:', `  - use: ${fx('outer.ts')}`, `  - use: ${fx('inner.mjs')}`, 'tools:', `  - use: ${fx('echo-tool.ts')}`])
    const harness = await loadHarness(file)
    const tools = harness.ctx.tools
    expect(tools.specs().map((s) => s.name)).toEqual(['echo'])
    await harness.dispose()
    expect(tools.chain('tools/execute')).toEqual([])
    expect(tools.specs()).toEqual([])
    expect(harness.ctx.get('tools')).toBeUndefined()
    await harness.dispose()
  })

  it('gives two independent harnesses when loaded twice', async () => {
    const { file } = await harnessProject((fx) => ['plugins:', `  - use: ${fx('outer.ts')}`, 'tools:', `  - use: ${fx('echo-tool.ts')}`])
    const [a, b] = [await loadHarness(file), await loadHarness(file)]
    expect(a.ctx).not.toBe(b.ctx)
    expect(a.ctx.tools).not.toBe(b.ctx.tools)
    a.entries[1]!.fork.dispose()
    expect(a.ctx.tools.get('echo')).toBeUndefined()
    expect(b.ctx.tools.get('echo')).toBeDefined()
    await a.dispose()
    expect(b.ctx.tools.chain('tools/execute')).toEqual(['outer'])
    expect(await b.ctx.tools.execute({ id: 'c', name: 'echo', arguments: { text: 'still here' } })).toMatchObject({ value: 'still here' })
    await b.dispose()
  })

  it('never writes the config file or anything next to it', async () => {
    const { file, dir, text } = await harnessProject((fx) => ['plugins:', `  - use: ${fx('outer.ts')}`, 'agent: { maxTurns: 2 }'])
    const harness = await loadHarness(file)
    await harness.dispose()
    expect(await readFile(file, 'utf8')).toBe(text)
    expect(await readdir(dir)).toEqual(['rein.yaml'])
  })

  it('builds the provider from the file, and a provider passed in code overrides it', async () => {
    const { file } = await harnessProject((fx) => [`provider: { use: ${fx('provider.ts')}, config: { reply: from-file } }`])
    const fromFile = await loadHarness(file)
    expect(await fromFile.provider?.generate({ messages: [], tools: [] })).toEqual({ role: 'assistant', content: 'from-file' })
    await fromFile.dispose()
    const provider = { generate: async () => ({ role: 'assistant' as const, content: 'from-code' }) }
    const fromCode = await loadHarness(file, { provider })
    expect(fromCode.provider).toBe(provider)
    await fromCode.dispose()
  })

  it('leaves the file\'s provider (and its variables) alone when a provider is passed in code', async () => {
    const { file } = await harnessProject((fx) => [`provider: { use: ${fx('provider.ts')}, config: { reply: '\${env:REIN_TEST_UNSET_KEY}' } }`])
    await expect(loadHarness(file, { env: {} })).rejects.toThrow('REIN_TEST_UNSET_KEY')
    const provider = { generate: async () => ({ role: 'assistant' as const, content: 'from-code' }) }
    const harness = await loadHarness(file, { provider, env: {} })
    expect(harness.provider).toBe(provider)
    await harness.dispose()
  })

  it('loads a 0.7 MB file with 40,000 keys in one plugin config', async () => {
    const words = Array.from({ length: 40_000 }, (_, i) => `      w${i}: ${i}`)
    const { file, text } = await harnessProject(() => ['plugins:', '  - use: ./words.mjs', '    config:', '      words:', ...words.map((line) => `  ${line}`)], {
      'words.mjs': [
        'export const name = "words"',
        'export const inject = ["tools"]',
        'export function apply(ctx, config) {',
        '  const count = Object.keys(config.words).length',
        '  ctx.tools.register({ name: "count", description: "How many words.", parameters: { type: "object" }, execute: () => count })',
        '}',
      ].join('\n'),
    })
    expect(text.length).toBeGreaterThan(700_000)
    const harness = await loadHarness(file)
    expect((harness.config.plugins[0]!.config as { words: Record<string, number> }).words.w39999).toBe(39_999)
    expect(await harness.ctx.tools.execute({ id: 'c1', name: 'count', arguments: {} })).toMatchObject({ isError: false, value: 40_000 })
    await harness.dispose()
  })

  it('reports a missing provider only when the agent is used', async () => {
    const { file } = await harnessProject((fx) => ['plugins:', `  - use: ${fx('outer.ts')}`, 'agent: { maxTurns: 2 }'])
    const harness = await loadHarness(file)
    expect(() => harness.agent).toThrow(`${file}: no provider: add a "provider: { use, config }" section, or pass { provider } to loadHarness`)
    await harness.dispose()
  })

  it('loads a harness to inspect it only: plugins and provider as usual, but no agent', async () => {
    const { file } = await harnessProject((fx) => ['plugins:', `  - use: ${fx('outer.ts')}`])
    const provider = { generate: async () => ({ role: 'assistant' as const, content: 'ok' }) }
    const harness = await loadHarness(file, { provider, inspectOnly: true })
    expect(harness.ctx.tools.chain('tools/execute')).toEqual(['outer'])
    expect(harness.provider).toBe(provider)
    const message = `${file}: the harness was loaded with { inspectOnly: true }, which builds no agent: load it without inspectOnly to run one`
    expect(() => harness.agent).toThrow(message)
    expect(() => harness.agentFor(memorySession())).toThrow(message)
    await harness.dispose()
  })
})

describe('readConfig', () => {
  it('reads what the file says without loading anything: no module imported, the provider\'s variables not needed', async () => {
    const dir = await project({ 'rein.yaml': 'provider: { use: ./nowhere.mjs, config: { apiKey: "${env:NOT_SET_ANYWHERE}" } }\nplugins: [./missing-plugin.mjs]\nsession: ./runs/s.jsonl\nagent: { approvals: park }\n' })
    const config = await readConfig(join(dir, 'rein.yaml'), { env: {} })
    expect(config.session).toBe(join(dir, 'runs', 's.jsonl'))
    expect(config.agent.approvals).toBe('park')
  })

  it('throws ConfigErrors naming the file and line of each problem', async () => {
    const dir = await project({ 'rein.yaml': 'tools: [x]\nsession: 7\n' })
    await expect(readConfig(join(dir, 'rein.yaml'), { env: {} })).rejects.toMatchObject({ name: 'ConfigErrors', message: expect.stringMatching(/rein\.yaml:2.*"session" must be the path of a JSONL session file/) })
  })
})
