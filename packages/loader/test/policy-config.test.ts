/**
 * A slip in a policy plugin's config fails the load at its line, instead of loading a weaker
 * policy: a misspelt key at any depth (permission-guard, audit and spill wrap their object
 * schema in a transform, and a rule is an object inside a list), a key indented one level too
 * little, a YAML tag that turns a mapping into a Set or a Map, a key that names a prototype.
 * Real rein.yaml files in temp folders, loaded with the standard packages.
 */
import { dirname, join } from 'node:path'
import * as permissionGuard from '@rein/plugin-permission-guard'
import { describe, expect, it } from 'vitest'
import { ConfigErrors, createHarness, loadHarness } from '../src/index.js'
import { project } from './helpers.js'

const GUARD = 'plugins[0] (@rein/plugin-permission-guard)'

/** A tool source registering `rm`, `bash` and `read_file`, whose bodies only say that they ran. */
const TOOLS = [
  "export const name = 'fixture-tools'",
  "export const inject = ['tools']",
  'export function apply(ctx) {',
  "  for (const name of ['rm', 'bash', 'read_file']) {",
  "    ctx.tools.register({ name, description: name, parameters: { type: 'object' }, execute: () => 'ran' })",
  '  }',
  '}',
].join('\n')

/** A project whose rein.yaml holds `lines`, then the fixture tools; returns the path of rein.yaml. */
async function configFile(lines: string[]): Promise<string> {
  const dir = await project({ 'rein.yaml': [...lines, 'tools:', '  - use: ./tools.mjs', ''].join('\n'), 'tools.mjs': TOOLS })
  return join(dir, 'rein.yaml')
}

/** The permission-guard entry with `config` lines (indented under `config:`). */
const guard = (...config: string[]) => ['plugins:', "  - use: '@rein/plugin-permission-guard'", '    config:', ...config.map((line) => `      ${line}`)]

/** The lines `loadHarness(file)` is refused with. */
async function refusal(file: string): Promise<string[]> {
  const error = await loadHarness(file, { inspectOnly: true, env: {} }).then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(ConfigErrors)
  return (error as ConfigErrors).message.split('\n')
}

describe('permission-guard config slips fail the load', () => {
  it('a misspelt top-level key: defualt, rule', async () => {
    const defualt = await configFile(guard('defualt: deny', 'rules: [{ tool: read_file, action: allow }]'))
    expect(await refusal(defualt)).toEqual([
      `${defualt}:4 ${GUARD}: unknown config key "defualt" (did you mean "default"?); valid keys: default, rules, permissions, cwd`,
    ])
    const rule = await configFile(guard('rule:', '  - { tool: rm, action: deny }'))
    expect(await refusal(rule)).toEqual([
      `${rule}:4 ${GUARD}: unknown config key "rule" (did you mean "rules"?); valid keys: default, rules, permissions, cwd`,
    ])
  })

  it('a misspelt key in permissions, and a cwd taken from the config file folder', async () => {
    const file = await configFile(guard('permissions: { alow: [Read] }'))
    expect(await refusal(file)).toEqual([
      `${file}:4 ${GUARD}: permissions has an unknown key "alow": the keys are "allow", "ask" and "deny", each a list such as ["Bash(git status)"]`,
    ])
    const relative = await configFile(guard('cwd: ./sub', "permissions: { deny: ['Read(./.env)'] }"))
    const harness = await loadHarness(relative, { inspectOnly: true, env: {} })
    try {
      const at = (path: string) => harness.ctx.tools.execute({ id: 'c', name: 'read_file', arguments: { path } }).then((r) => r.isError)
      expect(await at(join(dirname(relative), 'sub', '.env'))).toBe(true)
      expect(await at(join(dirname(relative), '.env'))).toBe(false)
    } finally {
      await harness.dispose()
    }
  })

  it('a misspelt key in a rule: wehn, at its own line', async () => {
    const file = await configFile(guard(
      'default: deny',
      'rules:',
      '  - { tool: read_file, action: allow }',
      '  - tool: bash',
      '    action: allow',
      "    wehn: { command: { shell: 'git status' } }",
    ))
    expect(await refusal(file)).toEqual([
      `${file}:9 ${GUARD}: unknown config key "wehn" in rules[1] (did you mean "when"?); valid keys: tool, action, reason, when`,
    ])
  })

  it('a condition indented one level too little, and a list indented under a rule', async () => {
    const slip = await configFile(guard(
      'default: deny',
      'rules:',
      '  - tool: read_file',
      '    action: allow',
      '    when:',
      "      path: 'src/*'",
      "    command: { shell: 'git status' }",
    ))
    expect(await refusal(slip)).toEqual([
      `${slip}:10 ${GUARD}: unknown config key "command" in rules[0]; valid keys: tool, action, reason, when`,
    ])
    const nested = await configFile(guard('rules:', '- tool: rm', '  action: deny', '  rules:', '- { tool: read_file, action: allow }'))
    expect(await refusal(nested)).toEqual([
      `${nested}:7 ${GUARD}: unknown config key "rules" in rules[0]; valid keys: tool, action, reason, when`,
    ])
  })

  it('a condition written as a YAML set or ordered mapping', async () => {
    const set = await configFile(guard('default: deny', 'rules:', '  - tool: bash', '    action: allow', '    when: !!set { command }'))
    expect(await refusal(set)).toEqual([
      `${set}:8: plugins[0].config.rules[0].when is a YAML set (!!set), which rein does not read as config; write a plain mapping, list or string instead`,
    ])
    const omap = await configFile(['%YAML 1.1', '---', ...guard(
      'default: deny', 'rules:', '  - tool: bash', '    action: allow', "    when: !!omap [ { command: { shell: 'git *' } } ]",
    )])
    expect(await refusal(omap)).toEqual([
      `${omap}:10: plugins[0].config.rules[0].when is an ordered mapping (!!omap), which rein does not read as config; ` +
        'write a plain mapping, list or string instead',
    ])
  })

  it('a __proto__, constructor or prototype key, anywhere in the config', async () => {
    const refused = (key: string, where: string) => `config key "${key}"${where} is refused: __proto__, constructor, prototype ` +
      'name parts of every JavaScript object, not settings, so a plugin would not read it as written; remove or rename it'
    const file = await configFile(guard(
      '__proto__: { default: deny }',
      'rules:',
      "  - { tool: bash, action: allow, when: { __proto__: { command: { shell: 'git *' } } } }",
      "  - { tool: rm, action: deny, when: { constructor: 'x' } }",
    ))
    expect(await refusal(file)).toEqual([
      `${file}:4 ${GUARD}: ${refused('__proto__', '')}`,
      `${file}:6 ${GUARD}: ${refused('__proto__', ' in rules[0].when')}`,
      `${file}:7 ${GUARD}: ${refused('constructor', ' in rules[1].when')}`,
    ])
  })

  it('from code too: createHarness refuses a misspelt rule key', async () => {
    const error = await createHarness({
      plugins: [[permissionGuard, { default: 'deny', rules: [{ tool: 'bash', action: 'allow', wehn: { command: { shell: 'git *' } } }] }]],
    }).then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigErrors)
    expect((error as ConfigErrors).message)
      .toBe('plugins[0] (permission-guard): unknown config key "wehn" in rules[0] (did you mean "when"?); valid keys: tool, action, reason, when')
  })

  it('still loads a correct policy, which denies what it should', async () => {
    const file = await configFile(guard(
      'default: deny',
      'rules:',
      '  - { tool: read_file, action: allow, reason: reading is fine }',
      "  - { tool: bash, action: allow, when: { command: { shell: 'git status' } } }",
    ))
    const harness = await loadHarness(file, { inspectOnly: true })
    const run = async (name: string, args: Record<string, unknown>) => {
      const result = await harness.ctx.tools.execute({ id: 'c', name, arguments: args })
      return result.isError ? result.error.info?.code : result.value
    }
    expect(harness.warnings).toEqual([])
    expect(await run('read_file', { path: 'a' })).toBe('ran')
    expect(await run('bash', { command: 'git status' })).toBe('ran')
    expect(await run('bash', { command: 'rm -rf /' })).toBe('TOOL_DENIED')
    expect(await run('rm', {})).toBe('TOOL_DENIED')
    await harness.dispose()
  })

  it('optional: true keeps its documented meaning, and the warning says the guard is NOT active', async () => {
    const file = await configFile(['plugins:', "  - use: '@rein/plugin-permission-guard'", '    optional: true', '    config:', '      defualt: deny'])
    const harness = await loadHarness(file, { inspectOnly: true })
    expect(harness.warnings).toEqual([
      `${file}:5 ${GUARD}: unknown config key "defualt" (did you mean "default"?); valid keys: default, rules, permissions, cwd; ` +
        'this plugin is NOT active; the entry is optional, so the harness runs without it',
    ])
    expect(harness.entries.map((entry) => entry.label)).toEqual(['tools[0] (./tools.mjs)'])
    await harness.dispose()
  })
})

describe('other plugins whose schema is a transform refuse a misspelt key', () => {
  it('audit, spill and tool-run-code', async () => {
    const file = await configFile([
      'plugins:',
      "  - use: '@rein/plugin-audit'",
      '    config: { file: ./audit.jsonl, redcat: [secret] }',
      "  - use: '@rein/plugin-spill'",
      '    config:',
      '      maxInlineByte: 100',
      '      tools: { read_file: 10 }',
      "  - use: '@rein/tool-run-code'",
      '    config: { maxRunMS: 100 }',
    ])
    expect(await refusal(file)).toEqual([
      `${file}:3 plugins[0] (@rein/plugin-audit): unknown config key "redcat" (did you mean "redact"?); valid keys: file, redact, maxStringLength`,
      `${file}:6 plugins[1] (@rein/plugin-spill): unknown config key "maxInlineByte" (did you mean "maxInlineBytes"?); ` +
        'valid keys: maxInlineBytes, tools, maxBatchBytes, store, maxStoreBytes, dir, redact',
      `${file}:9 plugins[2] (@rein/tool-run-code): unknown config key "maxRunMS" (did you mean "maxRunMs"?); ` +
        'valid keys: maxRunMs, memoryLimitBytes, maxStackBytes, tools, maxCalls, maxParallelCalls',
    ])
  })

  it('while the keys of a dictionary stay free: spill caps by tool name', async () => {
    const file = await configFile(['plugins:', "  - use: '@rein/plugin-spill'", '    config: { store: memory, tools: { read_file: 10, any-name-at-all: 20 } }'])
    const harness = await loadHarness(file, { inspectOnly: true })
    expect(harness.warnings).toEqual([])
    await harness.dispose()
  })
})
