/**
 * Which strings of an entry's config the loader resolves against the config file's folder: every
 * `./`/`../` string by default, only those under the keys a module lists in `configPaths`, and
 * none of permission-guard's (its globs are patterns: `./.env` made absolute would match nothing
 * the model sends). Real rein.yaml files in temp folders.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigErrors, loadHarness } from '../src/index.js'
import { configPathsOf, resolveConfigPaths } from '../src/config-paths.js'
import { project } from './helpers.js'

/** A plugin that registers `config_seen`, returning the config it was applied with. */
const ECHO_CONFIG = (declaration: string) => [
  "export const name = 'echo-config'",
  "export const inject = ['tools']",
  declaration,
  'export function apply(ctx, config) {',
  "  ctx.tools.register({ name: 'config_seen', description: 'x', parameters: { type: 'object' }, execute: () => JSON.stringify(config) })",
  '}',
].join('\n')

/** The config `./plugin.mjs` (declaring `declaration`) was applied with, given `config` lines in rein.yaml. */
async function appliedConfig(declaration: string, config: string): Promise<{ dir: string, seen: unknown }> {
  const dir = await project({
    'rein.yaml': ['plugins:', '  - use: ./plugin.mjs', `    config: ${config}`, ''].join('\n'),
    'plugin.mjs': ECHO_CONFIG(declaration),
  })
  const harness = await loadHarness(join(dir, 'rein.yaml'), { inspectOnly: true, env: {} })
  try {
    const result = await harness.ctx.tools.execute({ id: 'c1', name: 'config_seen', arguments: {} })
    if (result.isError) throw new Error(`config_seen failed: ${JSON.stringify(result)}`)
    return { dir, seen: JSON.parse(String(result.value)) }
  } finally {
    await harness.dispose()
  }
}

describe('relative paths in an entry config', () => {
  it('are all resolved from the config folder when the module does not say', async () => {
    const { dir, seen } = await appliedConfig('', "{ file: ./a.jsonl, nested: { dir: '../b' }, glob: './src/*' }")
    expect(seen).toEqual({ file: join(dir, 'a.jsonl'), nested: { dir: join(dir, '..', 'b') }, glob: join(dir, 'src/*') })
  })

  it('are resolved only under the keys the module lists in configPaths', async () => {
    const { dir, seen } = await appliedConfig("export const configPaths = ['file']", "{ file: ./a.jsonl, patterns: ['./.env', '../x'] }")
    expect(seen).toEqual({ file: join(dir, 'a.jsonl'), patterns: ['./.env', '../x'] })
  })

  it('are left as written when configPaths is empty', async () => {
    const { seen } = await appliedConfig('export const configPaths = []', "{ file: ./a.jsonl, nested: { dir: '..' } }")
    expect(seen).toEqual({ file: './a.jsonl', nested: { dir: '..' } })
  })

  it('a malformed configPaths fails the load, naming the fix', async () => {
    const error = await appliedConfig("export const configPaths = 'file'", '{ file: ./a.jsonl }').then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigErrors)
    expect((error as Error).message).toMatch(/configPaths must be a list of top-level config keys whose strings are file paths \(got "file"\); export \[\] when none are/)
  })

  it('keep a __proto__ key as own data when only some keys are resolved', () => {
    const config = JSON.parse('{"__proto__": "./x", "file": "./y"}') as Record<string, unknown>
    const out = resolveConfigPaths(config, '/base', { configPaths: ['file'] }) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe('./x')
    expect(out.file).toBe('/base/y')
    expect(configPathsOf(null)).toBeUndefined()
  })
})

describe('permission-guard rules from rein.yaml', () => {
  it('keep a ./ glob as written, so a deny of ./.env denies the call that names it', async () => {
    const dir = await project({
      'rein.yaml': [
        'plugins:',
        "  - use: '@rein/plugin-permission-guard'",
        "    config: { rules: [{ tool: read_file, action: deny, when: { path: './.env' } }] }",
        'tools:',
        '  - use: ./tools.mjs',
        '',
      ].join('\n'),
      'tools.mjs': [
        "export const name = 'fixture-tools'",
        "export const inject = ['tools']",
        "export function apply(ctx) { ctx.tools.register({ name: 'read_file', description: 'x', parameters: { type: 'object' }, execute: () => 'secret' }) }",
      ].join('\n'),
    })
    const harness = await loadHarness(join(dir, 'rein.yaml'), { inspectOnly: true, env: {} })
    try {
      const denied = await harness.ctx.tools.execute({ id: 'c1', name: 'read_file', arguments: { path: './.env' } })
      expect(denied).toMatchObject({ isError: true, error: { info: { code: 'TOOL_DENIED' } } })
      expect(JSON.stringify(denied)).toContain('./.env')
    } finally {
      await harness.dispose()
    }
  })
})
