/**
 * The shape of `rein.yaml`, checked before anything is imported. Every key is known, every
 * entry has a `use`, every value has the type its section needs; `${env:NAME}` is substituted
 * everywhere and relative path strings are made absolute in entry configs, `session` and
 * `examples`. Each problem is a `ConfigError` at the line of the offending key.
 */
import { resolve } from 'node:path'
import { ConfigError, LoaderCodes, ValueProblem, type LoaderCode } from './errors.js'
import { interpolateEnv, resolveRelativePaths } from './interpolate.js'
import { didYouMean } from './suggest.js'
import type { ValuePath, YamlSource } from './source.js'

/** The top-level keys of `rein.yaml`, in the order the docs present them. */
export const TOP_LEVEL_KEYS = ['provider', 'plugins', 'tools', 'agent', 'examples', 'session'] as const
const ENTRY_KEYS = ['use', 'config'] as const
const AGENT_KEYS = ['maxTurns', 'maxParallelToolCalls', 'system'] as const

/** One `{ use, config }` entry, with where it is. */
export interface EntryConfig {
  section: 'provider' | 'plugins' | 'tools'
  /** The position in its list; undefined for `provider`. */
  index: number | undefined
  /** The module, as written: a package name, `./x.ts`, or an absolute path. */
  use: string
  /** The entry's config after substitution; undefined when the entry has none. */
  config: unknown
  /** The line of the entry, and how errors name it: `plugins[2] (@rein/plugin-retry)`. */
  line: number
  label: string
  /** Where the entry sits in the file, for pointing at keys inside its config. */
  path: ValuePath
}

/** The `agent` section. Unset keys take `createAgent`'s defaults. */
export interface AgentSettings {
  maxTurns?: number
  maxParallelToolCalls?: number
  system?: string
}

/** A checked `rein.yaml`. */
export interface HarnessConfig {
  file: string
  dir: string
  provider: EntryConfig | undefined
  plugins: EntryConfig[]
  tools: EntryConfig[]
  agent: AgentSettings
  /** Absolute paths of the few-shot example files. */
  examples: string[]
  /** Absolute path of the JSONL session, when set. */
  session: string | undefined
}

/**
 * Checks the parsed file and substitutes variables. Throws `ConfigError` on the first problem.
 * With `ignoreProvider` (a provider was given in code) the file's `provider` entry is neither
 * read nor interpolated, so its variables (an API key) need not be set.
 */
export function readHarnessConfig(
  source: YamlSource, env: Readonly<Record<string, string | undefined>>, options: { ignoreProvider?: boolean } = {},
): HarnessConfig {
  const fail = (code: LoaderCode, path: ValuePath, detail: string): never => {
    throw new ConfigError(code, { file: source.file, line: source.lineOf(path), entry: labelAt(source.data, path) }, detail)
  }
  const raw = source.data ?? {}
  if (!isPlainObject(raw)) return fail(LoaderCodes.CONFIG_INVALID, [], `the file must be a mapping with the keys ${TOP_LEVEL_KEYS.join(', ')}`)
  for (const key of Object.keys(raw)) {
    if (!(TOP_LEVEL_KEYS as readonly string[]).includes(key)) {
      throw new ConfigError(LoaderCodes.CONFIG_INVALID, { file: source.file, line: source.lineOf([key]) },
        `unknown top-level key "${key}"${didYouMean(key, TOP_LEVEL_KEYS)}; valid keys: ${TOP_LEVEL_KEYS.join(', ')}`)
    }
  }
  let data: Record<string, unknown>
  try {
    const { provider: _ignored, ...rest } = raw
    data = interpolateEnv(options.ignoreProvider ? rest : raw, env) as Record<string, unknown>
  } catch (error) {
    if (error instanceof ValueProblem) return fail(error.code, error.path, error.detail)
    throw error
  }

  const entry = (section: EntryConfig['section'], index: number | undefined, value: unknown): EntryConfig => {
    const path: ValuePath = index === undefined ? [section] : [section, index]
    const item = typeof value === 'string' ? { use: value } : value
    if (!isPlainObject(item)) return fail(LoaderCodes.CONFIG_INVALID, path, 'an entry must be { use: <package or ./file>, config?: {...} }')
    checkKeys(item, ENTRY_KEYS, path, 'entry key', fail)
    if (typeof item.use !== 'string' || item.use.trim() === '') {
      return fail(LoaderCodes.CONFIG_INVALID, path, '"use" must name a package or a local file (./plugin.ts)')
    }
    const config = item.config === undefined || item.config === null ? undefined : resolveRelativePaths(item.config, source.dir)
    return { section, index, use: item.use, config, line: source.lineOf(path), label: labelAt(raw, path) ?? section, path }
  }
  const list = (section: 'plugins' | 'tools'): EntryConfig[] => {
    const value = data[section]
    if (value === undefined || value === null) return []
    if (!Array.isArray(value)) return fail(LoaderCodes.CONFIG_INVALID, [section], `"${section}" must be a list of { use, config } entries`)
    return value.map((item, index) => entry(section, index, item))
  }

  return {
    file: source.file,
    dir: source.dir,
    provider: data.provider === undefined || data.provider === null ? undefined : entry('provider', undefined, data.provider),
    plugins: list('plugins'),
    tools: list('tools'),
    agent: readAgent(data.agent, fail),
    examples: readExamples(data.examples, source.dir, fail),
    session: readSession(data.session, source.dir, fail),
  }
}

type Fail = (code: LoaderCode, path: ValuePath, detail: string) => never

function readAgent(value: unknown, fail: Fail): AgentSettings {
  if (value === undefined || value === null) return {}
  if (!isPlainObject(value)) return fail(LoaderCodes.CONFIG_INVALID, ['agent'], '"agent" must be a mapping { maxTurns?, maxParallelToolCalls?, system? }')
  checkKeys(value, AGENT_KEYS, ['agent'], 'agent key', fail)
  const settings: AgentSettings = {}
  for (const key of ['maxTurns', 'maxParallelToolCalls'] as const) {
    const n = value[key]
    if (n === undefined) continue
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
      return fail(LoaderCodes.CONFIG_INVALID, ['agent', key], `${key} must be a positive integer (got ${JSON.stringify(n)})`)
    }
    settings[key] = n
  }
  if (value.system !== undefined) {
    if (typeof value.system !== 'string') return fail(LoaderCodes.CONFIG_INVALID, ['agent', 'system'], 'system must be a string')
    settings.system = value.system
  }
  return settings
}

function readExamples(value: unknown, dir: string, fail: Fail): string[] {
  if (value === undefined || value === null) return []
  const list = typeof value === 'string' ? [value] : value
  if (!Array.isArray(list)) return fail(LoaderCodes.CONFIG_INVALID, ['examples'], '"examples" must be a list of file paths')
  return list.map((item, index) => {
    if (typeof item !== 'string') return fail(LoaderCodes.CONFIG_INVALID, ['examples', index], 'each example file must be a path string')
    return resolve(dir, item)
  })
}

function readSession(value: unknown, dir: string, fail: Fail): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') return fail(LoaderCodes.CONFIG_INVALID, ['session'], '"session" must be the path of a JSONL session file')
  return resolve(dir, value)
}

function checkKeys(value: Record<string, unknown>, known: readonly string[], path: ValuePath, what: string, fail: Fail): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      fail(LoaderCodes.CONFIG_INVALID, [...path, key], `unknown ${what} "${key}"${didYouMean(key, known)}; valid keys: ${known.join(', ')}`)
    }
  }
}

/** How errors name the entry that `path` points into: `plugins[2] (@rein/plugin-retry)`, `provider (x)`, `agent`. */
export function labelAt(data: unknown, path: ValuePath): string | undefined {
  const [section, index] = path
  if (section === undefined || !isPlainObject(data)) return undefined
  const value = data[String(section)]
  if ((section === 'plugins' || section === 'tools') && typeof index === 'number' && Array.isArray(value)) {
    return withUse(`${section}[${index}]`, value[index])
  }
  if (section === 'provider') return withUse('provider', value)
  return String(section)
}

function withUse(label: string, item: unknown): string {
  const use = typeof item === 'string' ? item : isPlainObject(item) && typeof item.use === 'string' ? item.use : undefined
  return use ? `${label} (${use})` : label
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
