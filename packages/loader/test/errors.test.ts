/**
 * Every way a config can be wrong, through `loadHarness`: each error names the file, the line,
 * the entry, and what to do. The texts are asserted whole, because they are the interface.
 * A file with one problem throws `ConfigErrors` holding exactly that one.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, ConfigErrors, loadHarness } from '../src/index.js'
import { harnessProject } from './helpers.js'

async function errorOf(file: string, env: Record<string, string> = {}): Promise<ConfigError> {
  const error = await loadHarness(file, { env }).then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(ConfigErrors)
  const { errors, message } = error as ConfigErrors
  expect(errors).toHaveLength(1)
  expect(errors[0]).toBeInstanceOf(ConfigError)
  expect(message).toBe(errors[0]!.message)
  return errors[0]!
}

describe('a bad rein.yaml', () => {
  it('YAML syntax: file, the line where the unclosed { opens, and the parser message', async () => {
    const { file } = await harnessProject(() => ['plugins:', '  - use: "@rein/plugin-cache"', '    config: { ttlMs: 5', 'agent: {}'])
    const error = await errorOf(file)
    expect(error.code).toBe('CONFIG_SYNTAX')
    expect(error.message).toBe(`${file}:3: YAML syntax error: Flow map in block collection must be sufficiently indented and end with a } (column 13)`)
  })

  it('unknown top-level key: names it, suggests, lists the valid keys', async () => {
    const { file } = await harnessProject(() => ['agent: { maxTurns: 3 }', 'tool:', '  - use: "@rein/tools-fs"'])
    expect((await errorOf(file)).message).toBe(
      `${file}:2: unknown top-level key "tool" (did you mean "tools"?); valid keys: provider, plugins, tools, agent, examples, session, startupTimeoutMs`)
  })

  it('missing environment variable: names it and the entry', async () => {
    const { file, fx } = await harnessProject((fx) => ['plugins:', `  - use: ${fx('configured.ts')}`, '    config:', '      token: "Bearer ${env:REIN_NO_SUCH_VAR}"'])
    expect((await errorOf(file)).message).toBe(`${file}:4 plugins[0] (${fx('configured.ts')}): ` +
      'environment variable REIN_NO_SUCH_VAR is not set (referenced as ${env:REIN_NO_SUCH_VAR}); set it or remove the reference')
  })

  it('unresolvable package: suggests the standard package it is close to, and says where it looked', async () => {
    const { file, dir } = await harnessProject(() => ['plugins:', '  - use: "@rein/plugin-cache"', '  - use: "@rein/plugin-retyr"'])
    const error = await errorOf(file)
    expect(error.code).toBe('MODULE_NOT_FOUND')
    expect(error.message).toMatch(new RegExp(`^${file}:3 plugins\\[1\\] \\(@rein/plugin-retyr\\): cannot find package "@rein/plugin-retyr" \\(did you mean "@rein/plugin-retry"\\?\\); ` +
      `looked in ${join(dir, 'node_modules')}, .* \\(from the config's folder\\) and .*/packages/loader/node_modules, .* \\(from rein's installation\\)\\. ` +
      'Install it next to the config \\(npm install @rein/plugin-retyr\\), or use \\./path/to/plugin\\.ts for a local file$'))
  })

  it('missing local file: says which path it tried, from which folder', async () => {
    const { file, dir } = await harnessProject(() => ['plugins:', '  - use: ./policies/nope.ts'])
    expect((await errorOf(file)).message).toBe(`${file}:2 plugins[0] (./policies/nope.ts): cannot find the local file ${join(dir, 'policies/nope.ts')} ` +
      `(paths in "use" are relative to the config's folder ${dir}); check the path, or name a package instead`)
  })

  it('not a plugin: says what a plugin must export and what the module exports', async () => {
    const { file, fx } = await harnessProject((fx) => ['tools:', `  - use: ${fx('echo-tool.ts')}`, `  - use: ${fx('not-a-plugin.js')}`])
    expect((await errorOf(file)).message).toBe(`${file}:3 tools[1] (${fx('not-a-plugin.js')}): this module is not a cordis plugin: ` +
      'a plugin exports apply(ctx, config) — with name, inject: [\'tools\'] and optionally a Config schema — as named exports or as ' +
      'its default export, or default-exports a function or a class; it exports: greet, greeting')
  })

  it('schema failure: the line of the key, the key and the expected type', async () => {
    const { file, fx } = await harnessProject((fx) => ['plugins:', `  - use: ${fx('outer.ts')}`, `  - use: ${fx('configured.ts')}`, '    config:', '      dir: ./data', '      maxAttempts: three'])
    const error = await errorOf(file)
    expect(error.code).toBe('PLUGIN_CONFIG_INVALID')
    expect(error.message).toBe(`${file}:6 plugins[1] (${fx('configured.ts')}): maxAttempts must be a number (got "three")`)
  })

  it('a plugin whose apply throws: names the entry and the reason', async () => {
    const { file, fx } = await harnessProject((fx) => ['plugins:', `  - use: ${fx('outer.ts')}`, `  - use: ${fx('throws.ts')}`])
    expect((await errorOf(file)).message).toBe(`${file}:3 plugins[1] (${fx('throws.ts')}): the plugin failed to start: cannot open the policy database`)
  })

  it('a plugin waiting for a service nothing provides: names the service', async () => {
    const { file, fx } = await harnessProject((fx) => ['plugins:', `  - use: ${fx('needs-service.ts')}`])
    expect((await errorOf(file)).message).toBe(`${file}:2 plugins[0] (${fx('needs-service.ts')}): ` +
      'the plugin failed to start: it needs the service "vault", which no plugin provides; list the plugin that provides it before this one')
  })

  it('the same module twice, or the kernel as an entry', async () => {
    const twice = await harnessProject((fx) => ['plugins:', `  - use: ${fx('outer.ts')}`, `  - use: ${fx('inner.mjs')}`, `  - use: ${fx('outer.ts')}`])
    expect((await errorOf(twice.file)).message).toBe(`${twice.file}:4 plugins[2] (${twice.fx('outer.ts')}): the same module is already listed as ` +
      `plugins[0] (${twice.fx('outer.ts')}); a plugin applies once per harness, so merge the two entries`)
    const kernel = await harnessProject(() => ['plugins:', '  - use: "@rein/kernel"'])
    expect((await errorOf(kernel.file)).message).toBe(`${kernel.file}:2 plugins[0] (@rein/kernel): this is the kernel, which every harness loads first by itself; remove this entry`)
  })

  it('a provider module without createProvider', async () => {
    const { file, fx } = await harnessProject((fx) => [`provider: { use: ${fx('outer.ts')} }`])
    expect((await errorOf(file)).message).toBe(`${file}:1 provider (${fx('outer.ts')}): this module is not a provider: ` +
      'a provider module exports createProvider(config) returning { generate(req) }; it exports: default')
  })
})
