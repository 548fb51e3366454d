/**
 * Building a harness reports every problem at once, in file order, after applying every entry
 * it can (so that a plugin failing to start is found even after an earlier problem), and stops
 * what it started. An `optional` entry that fails is left out with a warning, and the harness
 * it leaves behind is not closed.
 */
import { startupProblems } from '@rein/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigErrors, loadHarness } from '../src/index.js'
import { harnessProject } from './helpers.js'

const lifecycle = () => ((globalThis as { reinLifecycle?: string[] }).reinLifecycle ??= [])
afterEach(() => { lifecycle().length = 0 })

async function problemsOf(file: string): Promise<ConfigErrors> {
  const error = await loadHarness(file, { env: {} }).then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(ConfigErrors)
  return error as ConfigErrors
}

describe('building a harness', () => {
  it('reports every problem of the file at once, one line each in file order, and stops what it started', async () => {
    const { file, fx } = await harnessProject((fx) => [
      'plugins:',
      `  - use: ${fx('lifecycle.ts')}`,
      '  - use: "@rein/plugin-retyr"',
      `  - use: ${fx('configured.ts')}`,
      '    config: { maxAttempts: three }',
      `  - use: ${fx('throws.ts')}`,
      `  - use: ${fx('needs-service.ts')}`,
      '  - use: ./missing.ts',
      '    optional: maybe',
      'tools:',
      `  - use: ${fx('echo-tool.ts')}`,
      'agent: { maxTurns: 0 }',
    ])
    const error = await problemsOf(file)
    expect(error.errors.map((e) => [e.line, e.code])).toEqual([
      [3, 'MODULE_NOT_FOUND'],
      [5, 'PLUGIN_CONFIG_INVALID'],
      [6, 'PLUGIN_APPLY_FAILED'],
      [7, 'PLUGIN_APPLY_FAILED'],
      [9, 'CONFIG_INVALID'],
      [12, 'CONFIG_INVALID'],
    ])
    const lines = error.message.split('\n')
    expect(lines).toHaveLength(6)
    expect(lines[0]).toMatch(new RegExp(`^${file}:3 plugins\\[1\\] \\(@rein/plugin-retyr\\): cannot find package "@rein/plugin-retyr" \\(did you mean "@rein/plugin-retry"\\?\\); `))
    expect(lines.slice(1)).toEqual([
      `${file}:5 plugins[2] (${fx('configured.ts')}): maxAttempts must be a number (got "three")`,
      `${file}:6 plugins[3] (${fx('throws.ts')}): the plugin failed to start: cannot open the policy database`,
      `${file}:7 plugins[4] (${fx('needs-service.ts')}): the plugin failed to start: it needs the service "vault", which no plugin provides; ` +
        'list the plugin that provides it before this one',
      `${file}:9 plugins[5] (./missing.ts): "optional" must be true or false (got "maybe")`,
      `${file}:12 agent: maxTurns must be a positive integer (got 0)`,
    ])
    expect(lifecycle()).toEqual(['apply', 'dispose'])
  })

  it('leaves out an optional entry that fails, with a warning, and the rest runs', async () => {
    const { file, fx } = await harnessProject((fx) => [
      'plugins:',
      `  - use: ${fx('outer.ts')}`,
      `  - { use: ${fx('throws.ts')}, optional: true }`,
      `  - { use: ${fx('needs-service.ts')}, optional: true }`,
      '  - { use: ./policies/absent.ts, optional: true }',
      `  - use: ${fx('configured.ts')}`,
      '    optional: true',
      '    config: { maxAttempts: three }',
      `  - use: ${fx('inner.mjs')}`,
      'tools:',
      `  - use: ${fx('echo-tool.ts')}`,
      '    optional: true',
    ])
    const harness = await loadHarness(file)
    const skipped = '; this plugin is NOT active; the entry is optional, so the harness runs without it'
    expect(harness.warnings).toEqual([
      `${file}:3 plugins[1] (${fx('throws.ts')}): the plugin failed to start: cannot open the policy database${skipped}`,
      `${file}:4 plugins[2] (${fx('needs-service.ts')}): the plugin failed to start: it needs the service "vault", which no plugin provides; ` +
        `list the plugin that provides it before this one${skipped}`,
      expect.stringMatching(new RegExp(`^${file}:5 plugins\\[3\\] \\(\\./policies/absent\\.ts\\): cannot find the local file .*${skipped}$`)),
      `${file}:8 plugins[4] (${fx('configured.ts')}): maxAttempts must be a number (got "three")${skipped}`,
    ])
    expect(harness.entries.map((e) => e.label)).toEqual([`plugins[0] (${fx('outer.ts')})`, `plugins[5] (${fx('inner.mjs')})`, `tools[0] (${fx('echo-tool.ts')})`])
    expect(startupProblems(harness.ctx)).toEqual([])
    expect(harness.ctx.tools.chain('tools/execute')).toEqual(['outer', 'inner'])
    expect(await harness.ctx.tools.execute({ id: 'c1', name: 'echo', arguments: { text: 'still runs' } }))
      .toMatchObject({ isError: false, value: 'still runs' })
    await harness.dispose()
  })

  it('does not let an optional entry hide a required one that fails', async () => {
    const { file, fx } = await harnessProject((fx) => [
      'plugins:',
      `  - { use: ${fx('throws.ts')}, optional: true }`,
      `  - use: ${fx('needs-service.ts')}`,
    ])
    const error = await problemsOf(file)
    expect(error.errors.map((e) => e.line)).toEqual([3])
  })

  it('names the kernel and a repeated module, and still applies the entries between them', async () => {
    const { file, fx } = await harnessProject((fx) => [
      'plugins:',
      '  - use: "@rein/kernel"',
      `  - use: ${fx('lifecycle.ts')}`,
      `  - use: ${fx('lifecycle.ts')}`,
      `  - use: ${fx('throws.ts')}`,
    ])
    expect((await problemsOf(file)).errors.map((e) => [e.line, e.detail])).toEqual([
      [2, 'this is the kernel, which every harness loads first by itself; remove this entry'],
      [4, `the same module is already listed as plugins[1] (${fx('lifecycle.ts')}); a plugin applies once per harness, so merge the two entries`],
      [5, 'the plugin failed to start: cannot open the policy database'],
    ])
    expect(lifecycle()).toEqual(['apply', 'dispose'])
  })
})
