import { describe, expect, it } from 'vitest'
import { readHarnessConfig } from '../src/config.js'
import { ConfigError } from '../src/errors.js'
import { parseYaml } from '../src/source.js'

const FILE = '/project/rein.yaml'
const read = (text: string, env: Record<string, string> = {}) => readHarnessConfig(parseYaml(FILE, text), env)
const errorOf = (text: string, env: Record<string, string> = {}) => {
  try {
    read(text, env)
  } catch (error) {
    return error as ConfigError
  }
  throw new Error('expected a ConfigError')
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
      ['plugins[0] (@rein/plugin-audit)', 3, { file: '/project/audit.jsonl' }],
      ['plugins[1] (@rein/plugin-cache)', 5, undefined],
    ])
    expect(config.tools[0]).toMatchObject({ label: 'tools[0] (@rein/tools-fs)', config: { root: '/project' } })
    expect(config.agent).toEqual({ maxTurns: 4, maxParallelToolCalls: 2, system: './not-a-path-here' })
    expect(config.examples).toEqual(['/project/examples/few-shot.yaml'])
    expect(config.session).toBe('/project/runs/session.jsonl')
  })

  it('rejects an unknown top-level key, naming it, suggesting a fix and listing the valid keys', () => {
    expect(errorOf('provider: { use: p }\nplugin:\n  - use: a\n').message).toBe(
      '/project/rein.yaml:2: unknown top-level key "plugin" (did you mean "plugins"?); valid keys: provider, plugins, tools, agent, examples, session')
  })

  it('rejects an entry without use, and an unknown entry key', () => {
    expect(errorOf('plugins:\n  - use: a\n  - config: { x: 1 }\n').message)
      .toBe('/project/rein.yaml:3 plugins[1]: "use" must name a package or a local file (./plugin.ts)')
    expect(errorOf('plugins:\n  - use: a\n    with: { x: 1 }\n').message)
      .toBe('/project/rein.yaml:3 plugins[0] (a): unknown entry key "with"; valid keys: use, config')
  })

  it('checks the agent section', () => {
    expect(errorOf('agent:\n  maxTurns: many\n').message)
      .toBe('/project/rein.yaml:2 agent: maxTurns must be a positive integer (got "many")')
  })

  it('substitutes ${env:NAME} and names a missing variable with its entry and line', () => {
    const text = 'provider:\n  use: "@rein/provider-openai"\n  config:\n    apiKey: "${env:DEEPSEEK_API_KEY}"\n'
    expect(read(text, { DEEPSEEK_API_KEY: 'sk-1' }).provider?.config).toEqual({ apiKey: 'sk-1' })
    expect(errorOf(text).message).toBe('/project/rein.yaml:4 provider (@rein/provider-openai): ' +
      'environment variable DEEPSEEK_API_KEY is not set (referenced as ${env:DEEPSEEK_API_KEY}); set it or remove the reference')
  })

  it('accepts an empty file as an empty harness', () => {
    expect(read('')).toMatchObject({ provider: undefined, plugins: [], tools: [], agent: {}, examples: [] })
  })
})
