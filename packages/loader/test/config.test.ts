import { describe, expect, it } from 'vitest'
import { readHarnessConfig } from '../src/config.js'
import { parseYaml } from '../src/source.js'

const FILE = '/project/rein.yaml'
const check = (text: string, env: Record<string, string> = {}) => readHarnessConfig(parseYaml(FILE, text), env)
const read = (text: string, env: Record<string, string> = {}) => {
  const { config, problems } = check(text, env)
  expect(problems.map((p) => p.message)).toEqual([])
  return config
}
const messagesOf = (text: string, env: Record<string, string> = {}) => check(text, env).problems.map((p) => p.message)
const errorOf = (text: string, env: Record<string, string> = {}) => {
  const { problems } = check(text, env)
  expect(problems).toHaveLength(1)
  return problems[0]!
}

describe('readHarnessConfig', () => {
  it('reads every section, with entries labelled and located', () => {
    const config = read([
      'provider: { use: ./provider.ts, config: { model: m } }',
      'plugins:',
      '  - use: "@rein/plugin-audit"',
      '    config: { file: ./audit.jsonl }',
      '  - "@rein/plugin-cache"',
      'tools:',
      '  - use: "@rein/tools-fs"',
      '    config: { root: . }',
      'agent: { maxTurns: 4, maxParallelToolCalls: 2, system: ./not-a-path-here }',
      'examples: [examples/few-shot.yaml]',
      'session: ./runs/session.jsonl',
    ].join('\n'))
    expect(config.provider).toMatchObject({ use: './provider.ts', label: 'provider (./provider.ts)', line: 1, config: { model: 'm' } })
    expect(config.plugins.map((p) => [p.label, p.line, p.config])).toEqual([
      // As written: an entry's paths are resolved once its module says which keys hold them (config-paths.test.ts).
      ['plugins[0] (@rein/plugin-audit)', 3, { file: './audit.jsonl' }],
      ['plugins[1] (@rein/plugin-cache)', 5, undefined],
    ])
    expect(config.tools[0]).toMatchObject({ label: 'tools[0] (@rein/tools-fs)', config: { root: '.' } })
    expect(config.agent).toEqual({ maxTurns: 4, maxParallelToolCalls: 2, system: './not-a-path-here' })
    expect(config.examples).toEqual(['/project/examples/few-shot.yaml'])
    expect(config.session).toBe('/project/runs/session.jsonl')
  })

  it('rejects an unknown top-level key, naming it, suggesting a fix and listing the valid keys', () => {
    expect(errorOf('provider: { use: p }\nplugin:\n  - use: a\n').message).toBe(
      '/project/rein.yaml:2: unknown top-level key "plugin" (did you mean "plugins"?); valid keys: provider, plugins, tools, agent, examples, session, startupTimeoutMs')
  })

  it('reads startupTimeoutMs, and refuses anything but a whole number of ms that a timer can hold', () => {
    expect(read('startupTimeoutMs: 2500\nplugins: [a]\n').startupTimeoutMs).toBe(2500)
    expect(read('plugins: [a]\n').startupTimeoutMs).toBeUndefined()
    for (const bad of ['0', '-5', '1.5', '"soon"', '2147483648', '[1]']) {
      expect(messagesOf(`plugins: [a]\nstartupTimeoutMs: ${bad}\n`)).toEqual([
        `/project/rein.yaml:2 startupTimeoutMs: startupTimeoutMs must be a whole number of milliseconds from 1 to 2147483647 (got ${JSON.stringify(JSON.parse(bad))}); the default is 30000`,
      ])
    }
    expect(errorOf('plugins: [a]\nstartupTimeout: 100\n').message).toContain('unknown top-level key "startupTimeout" (did you mean "startupTimeoutMs"?)')
  })

  it('rejects an entry without use, and an unknown entry key', () => {
    expect(errorOf('plugins:\n  - use: a\n  - config: { x: 1 }\n').message)
      .toBe('/project/rein.yaml:3 plugins[1]: "use" must name a package or a local file (./plugin.ts)')
    expect(errorOf('plugins:\n  - use: a\n    with: { x: 1 }\n').message)
      .toBe('/project/rein.yaml:3 plugins[0] (a): unknown entry key "with"; valid keys: use, config, optional, isolate')
  })

  it('reads optional: true on plugins and tools, and refuses anything but a boolean, or on the provider', () => {
    const config = read('plugins:\n  - { use: a, optional: true }\n  - use: b\ntools:\n  - { use: c, optional: false }\n')
    expect([...config.plugins, ...config.tools].map((e) => [e.use, e.optional])).toEqual([['a', true], ['b', false], ['c', false]])
    expect(messagesOf('plugins:\n  - use: a\n    optional: yes\nprovider: { use: p, optional: true }\n')).toEqual([
      '/project/rein.yaml:3 plugins[0] (a): "optional" must be true or false (got "yes")',
      '/project/rein.yaml:4 provider (p): "optional" applies to plugins and tools; a provider, once listed, must load',
    ])
  })

  it('finds every problem of the file, and leaves out the entries that have one', () => {
    const { config, problems } = check([
      'plugins:',
      '  - use: a',
      '    confg: { x: 1 }',
      '  - use: b',
      '  - use: c',
      '    config: { key: "${env:REIN_NOPE}", other: "${env:REIN_NOPE_TOO}" }',
      'agent: { maxTurns: 0, maxParallelToolCalls: x }',
      'tool: []',
    ].join('\n'))
    expect(problems.map((p) => p.message)).toEqual([
      '/project/rein.yaml:3 plugins[0] (a): unknown entry key "confg" (did you mean "config"?); valid keys: use, config, optional, isolate',
      '/project/rein.yaml:6 plugins[2] (c): environment variable REIN_NOPE is not set (referenced as ${env:REIN_NOPE}); set it or remove the reference',
      '/project/rein.yaml:6 plugins[2] (c): environment variable REIN_NOPE_TOO is not set (referenced as ${env:REIN_NOPE_TOO}); set it or remove the reference',
      '/project/rein.yaml:7 agent: maxTurns must be a positive integer (got 0)',
      '/project/rein.yaml:7 agent: maxParallelToolCalls must be a positive integer (got "x")',
      '/project/rein.yaml:8: unknown top-level key "tool" (did you mean "tools"?); valid keys: provider, plugins, tools, agent, examples, session, startupTimeoutMs',
    ])
    expect(config.plugins.map((p) => p.label)).toEqual(['plugins[1] (b)'])
  })

  it('refuses a __proto__, constructor or prototype key in any entry\'s config, even an optional one', () => {
    const why = 'name parts of every JavaScript object, not settings, so a plugin would not read it as written; remove or rename it'
    const { config, problems } = check([
      'provider: { use: p, config: { __proto__: { model: m } } }',
      'plugins:',
      '  - use: a',
      '    optional: true',
      '    config:',
      '      rules: [{ when: { constructor: x } }]',
      '  - use: b',
      '    config: { prototype: 1, ok: { fine: 2 } }',
    ].join('\n'))
    expect(problems.map((p) => p.message)).toEqual([
      `/project/rein.yaml:1 provider (p): config key "__proto__" is refused: __proto__, constructor, prototype ${why}`,
      `/project/rein.yaml:6 plugins[0] (a): config key "constructor" in rules[0].when is refused: __proto__, constructor, prototype ${why}`,
      `/project/rein.yaml:8 plugins[1] (b): config key "prototype" is refused: __proto__, constructor, prototype ${why}`,
    ])
    expect([config.provider, ...config.plugins]).toEqual([undefined])
  })

  it('checks the agent section', () => {
    expect(errorOf('tools: [./t.ts]\nagent:\n  maxTurns: many\n').message)
      .toBe('/project/rein.yaml:3 agent: maxTurns must be a positive integer (got "many")')
  })

  it('takes redactSession: true or a list of patterns, refuses anything else, and still refuses unknown agent keys', () => {
    expect(read('tools: [./t.ts]\nagent: { redactSession: true }\n').agent).toEqual({ redactSession: true })
    expect(read('tools: [./t.ts]\nagent: { redactSession: false }\n').agent).toEqual({})
    expect(read("tools: [./t.ts]\nagent: { redactSession: ['corp-[0-9a-f]{8}'] }\n").agent).toEqual({ redactSession: ['corp-[0-9a-f]{8}'] })
    expect(messagesOf("tools: [./t.ts]\nagent:\n  redactSession: ['ok', 'corp-[0-9']\n  redactSesion: true\n")).toEqual([
      expect.stringMatching(/^\/project\/rein\.yaml:3 agent: redactSession\[1\] is not a valid regular expression: "corp-\[0-9" /),
      '/project/rein.yaml:4 agent: unknown agent key "redactSesion" (did you mean "redactSession"?); valid keys: maxTurns, maxParallelToolCalls, system, redactSession, approvals, approvalExpiresAfterMs',
    ])
    expect(messagesOf('tools: [./t.ts]\nagent: { redactSession: yes }\n')).toEqual([
      expect.stringContaining('agent: redactSession must be true (the built-in secret patterns) or a list of extra RegExp sources'),
    ])
  })

  it('takes approvals: park or ask and approvalExpiresAfterMs, and refuses anything else', () => {
    expect(read('tools: [./t.ts]\nagent: { approvals: park, approvalExpiresAfterMs: 86400000 }\n').agent).toEqual({ approvals: 'park', approvalExpiresAfterMs: 86_400_000 })
    expect(messagesOf('tools: [./t.ts]\nagent:\n  approvals: later\n  approvalExpiresAfterMs: 0\n')).toEqual([
      '/project/rein.yaml:3 agent: approvals must be "ask" (a live asker, else deny) or "park" (the run waits for answers written into the session) (got "later")',
      '/project/rein.yaml:4 agent: approvalExpiresAfterMs must be a positive integer (got 0)',
    ])
  })

  it('substitutes ${env:NAME} and names a missing variable with its entry and line', () => {
    const text = 'provider:\n  use: "@rein/provider-openai"\n  config:\n    apiKey: "${env:DEEPSEEK_API_KEY}"\n'
    expect(read(text, { DEEPSEEK_API_KEY: 'sk-1' }).provider?.config).toEqual({ apiKey: 'sk-1' })
    expect(errorOf(text).message).toBe('/project/rein.yaml:4 provider (@rein/provider-openai): ' +
      'environment variable DEEPSEEK_API_KEY is not set (referenced as ${env:DEEPSEEK_API_KEY}); set it or remove the reference')
  })

  it('refuses a file that describes no harness: empty, only comments, or no provider, plugins or tools', () => {
    const empty = '/project/rein.yaml: the file is empty (or holds only comments), so there is no harness to build; ' +
      'list at least a provider, a plugin or a tool source in it'
    expect(messagesOf('')).toEqual([empty])
    expect(messagesOf('# a harness, some day\n\n# nothing yet\n')).toEqual([empty])
    const none = 'the file lists no provider, plugins or tools, so there is no harness to build; list at least one of them'
    expect(messagesOf('# settings only\nagent: { maxTurns: 3 }\n')).toEqual([`/project/rein.yaml:2: ${none}`])
    expect(messagesOf('plugins: []\ntools:\n')).toEqual([`/project/rein.yaml:1: ${none}`])
    expect(messagesOf('tool: [./t.ts]\n')).toEqual([
      '/project/rein.yaml:1: unknown top-level key "tool" (did you mean "tools"?); valid keys: provider, plugins, tools, agent, examples, session, startupTimeoutMs',
    ])
  })

  it('accepts a file without entries when the provider is given in code', () => {
    const { problems } = readHarnessConfig(parseYaml(FILE, 'agent: { maxTurns: 3 }\n'), {}, { ignoreProvider: true })
    expect(problems).toEqual([])
    expect(read('provider: { use: ./p.ts }\n').provider?.use).toBe('./p.ts')
  })
})
