/**
 * The shape of `rein.yaml`, checked before anything is imported. Every key is known, every
 * entry has a `use`, every value has the type its section needs, no entry's config holds a
 * `__proto__`, `constructor` or `prototype` key; `${env:NAME}` is substituted everywhere and
 * relative path strings are made absolute in entry configs, `session` and `examples`. Every
 * problem is found, each a `ConfigError` at the line of the offending key; an entry with a
 * problem is left out of the config, so nothing is built from it.
 */
import { resolve } from 'node:path'
import { patternProblem } from '@rein/redact'
import { ConfigError, inFileOrder, LoaderCodes, ValueProblem, type LoaderCode } from './errors.js'
import { interpolateEnv } from './interpolate.js'
import { prototypeKeyDetail, prototypeKeys } from './plain-data.js'
import { readStartupTimeout } from './startup-deadline.js'
import { didYouMean } from './suggest.js'
import type { ValuePath, YamlSource } from './source.js'

/** The top-level keys of `rein.yaml`, in the order the docs present them. */
export const TOP_LEVEL_KEYS = ['provider', 'plugins', 'tools', 'agent', 'examples', 'session', 'startupTimeoutMs'] as const
const ENTRY_KEYS = ['use', 'config', 'optional', 'isolate'] as const
const AGENT_KEYS = ['maxTurns', 'maxParallelToolCalls', 'system', 'redactSession', 'approvals', 'approvalExpiresAfterMs'] as const

/** One `{ use, config, optional }` entry, with where it is. */
export interface EntryConfig {
  section: 'provider' | 'plugins' | 'tools'
  /** The position in its list; undefined for `provider`. */
  index: number | undefined
  /** The module, as written: a package name, `./x.ts`, or an absolute path. */
  use: string
  /**
   * The entry's config after `${env:NAME}` substitution; undefined when the entry has none. Once
   * its module is loaded, the config it is applied with: the relative paths the module declares
   * (`config-paths.ts`; by default every one) made absolute from the config file's folder.
   */
  config: unknown
  /** `optional: true`: if the entry fails to load or start, the harness runs without it and says so. */
  optional: boolean
  /** `isolate: true` (tools only): the module default-exports one tool, whose body runs in a worker thread. */
  isolate: boolean
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
  /**
   * Redact the session's entries before they are stored (`@rein/agent`'s `redactedSession`):
   * `true` for `@rein/redact`'s built-in patterns, or a list of extra RegExp sources redacted
   * after them. Unset or `false`: the session holds what the model saw.
   */
  redactSession?: true | string[]
  /** `park`: an ask nobody has answered parks the call and the run ends `awaiting-approval` (DESIGN.md §7.2); `ask` (default): a live asker. */
  approvals?: 'ask' | 'park'
  /** How long a parked request can be answered, in ms (default: no limit). */
  approvalExpiresAfterMs?: number
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
  /** How long each entry's module may take to load, and then its `apply`; undefined: the default. */
  startupTimeoutMs: number | undefined
}

/** Records a problem at `path` (a path into the file, or into the value being checked). */
export type Report = (code: LoaderCode, path: ValuePath, detail: string) => void

/**
 * Checks the parsed file and substitutes variables, finding every problem (in file order). A
 * file that lists no provider, plugins or tools is a problem: it describes no harness. With
 * `ignoreProvider` (a provider was given in code) the file's `provider` entry is neither read
 * nor interpolated, so its variables (an API key) need not be set, and the file may list nothing else.
 * `substituted` holds every value a variable put into the config, for the caller to keep out of
 * the errors it throws (`env-secrets.ts`): the problems here may quote them.
 */
export function readHarnessConfig(
  source: YamlSource, env: Readonly<Record<string, string | undefined>>, options: { ignoreProvider?: boolean } = {},
): { config: HarnessConfig, problems: ConfigError[], substituted: string[] } {
  const problems: ConfigError[] = []
  const putIn = new Set<string>()
  const report: Report = (code, path, detail) => {
    problems.push(new ConfigError(code, { file: source.file, line: source.lineOf(path), entry: labelAt(source.data, path) }, detail))
  }
  const config: HarnessConfig = { file: source.file, dir: source.dir, provider: undefined, plugins: [], tools: [], agent: {}, examples: [], session: undefined, startupTimeoutMs: undefined }
  const raw = source.data ?? {}
  if (!isPlainObject(raw)) {
    report(LoaderCodes.CONFIG_INVALID, [], `the file must be a mapping with the keys ${TOP_LEVEL_KEYS.join(', ')}`)
    return { config, problems, substituted: [] }
  }
  const unknownKeys = Object.keys(raw).filter((key) => !(TOP_LEVEL_KEYS as readonly string[]).includes(key))
  for (const key of unknownKeys) {
    problems.push(new ConfigError(LoaderCodes.CONFIG_INVALID, { file: source.file, line: source.lineOf([key]) },
      `unknown top-level key "${key}"${didYouMean(key, TOP_LEVEL_KEYS)}; valid keys: ${TOP_LEVEL_KEYS.join(', ')}`))
  }
  /** `value` at `path` with variables substituted, or undefined when one is missing (reported). */
  const substituted = (value: unknown, path: ValuePath): { value: unknown } | undefined => {
    const found: ValueProblem[] = []
    const out = interpolateEnv(value, env, path, found, putIn)
    for (const problem of found) report(problem.code, problem.path, problem.detail)
    return found.length ? undefined : { value: out }
  }

  const entry = (section: EntryConfig['section'], index: number | undefined, value: unknown): EntryConfig | undefined => {
    const path: ValuePath = index === undefined ? [section] : [section, index]
    const written = typeof value === 'string' ? { use: value } : value
    if (!isPlainObject(written)) {
      report(LoaderCodes.CONFIG_INVALID, path, 'an entry must be { use: <package or ./file>, config?: {...}, optional?: true }')
      return undefined
    }
    const item = substituted(written, path)?.value as Record<string, unknown> | undefined
    let ok = checkKeys(written, ENTRY_KEYS, path, 'entry key', report) && item !== undefined
    const use = (item ?? written).use
    if (typeof use !== 'string' || use.trim() === '') {
      report(LoaderCodes.CONFIG_INVALID, path, '"use" must name a package or a local file (./plugin.ts)')
      ok = false
    }
    if (written.optional !== undefined && section === 'provider') {
      report(LoaderCodes.CONFIG_INVALID, [...path, 'optional'], '"optional" applies to plugins and tools; a provider, once listed, must load')
      ok = false
    } else if (written.optional !== undefined && typeof written.optional !== 'boolean') {
      report(LoaderCodes.CONFIG_INVALID, [...path, 'optional'], `"optional" must be true or false (got ${JSON.stringify(written.optional)})`)
      ok = false
    }
    if (written.isolate !== undefined && section !== 'tools') {
      report(LoaderCodes.CONFIG_INVALID, [...path, 'isolate'], '"isolate" applies to tool modules (entries under tools:), whose default export is one tool definition')
      ok = false
    } else if (written.isolate !== undefined && typeof written.isolate !== 'boolean') {
      report(LoaderCodes.CONFIG_INVALID, [...path, 'isolate'], `"isolate" must be true or false (got ${JSON.stringify(written.isolate)})`)
      ok = false
    }
    for (const key of item ? prototypeKeys(item.config) : []) {
      report(LoaderCodes.CONFIG_INVALID, [...path, 'config', ...key], prototypeKeyDetail(key))
      ok = false
    }
    if (!ok || !item) return undefined
    const config = item.config === null ? undefined : item.config
    return {
      section, index, use: use as string, config, optional: written.optional === true, isolate: written.isolate === true,
      line: source.lineOf(path), label: labelAt(raw, path) ?? section, path,
    }
  }
  const list = (section: 'plugins' | 'tools'): EntryConfig[] => {
    const value = raw[section]
    if (value === undefined || value === null) return []
    if (!Array.isArray(value)) {
      report(LoaderCodes.CONFIG_INVALID, [section], `"${section}" must be a list of { use, config } entries`)
      return []
    }
    return value.flatMap((item, index) => entry(section, index, item) ?? [])
  }

  // A misspelt section (reported above) is the likelier story than a file that means to list nothing.
  if (!options.ignoreProvider && unknownKeys.length === 0 && !['provider', 'plugins', 'tools'].some((section) => isListed(raw[section]))) {
    if (source.data === undefined) {
      problems.push(new ConfigError(LoaderCodes.CONFIG_INVALID, { file: source.file },
        'the file is empty (or holds only comments), so there is no harness to build; list at least a provider, a plugin or a tool source in it'))
    } else {
      report(LoaderCodes.CONFIG_INVALID, [], 'the file lists no provider, plugins or tools, so there is no harness to build; list at least one of them')
    }
  }
  const hasProvider = !options.ignoreProvider && raw.provider !== undefined && raw.provider !== null
  config.provider = hasProvider ? entry('provider', undefined, raw.provider) : undefined
  config.plugins = list('plugins')
  config.tools = list('tools')
  config.agent = readAgentSettings(substituted(raw.agent, ['agent'])?.value, ['agent'], report)
  config.examples = readExamples(substituted(raw.examples, ['examples'])?.value, source.dir, report)
  config.session = readSession(substituted(raw.session, ['session'])?.value, source.dir, report)
  config.startupTimeoutMs = readStartupTimeout(substituted(raw.startupTimeoutMs, ['startupTimeoutMs'])?.value, ['startupTimeoutMs'], report)
  return { config, problems: inFileOrder(problems), substituted: [...putIn] }
}

/** Whether a section holds something: a provider entry, or a list with at least one item. */
function isListed(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null
}

/** Checks an `agent` section (from the file or from code), reporting each bad key; returns the good ones. */
export function readAgentSettings(value: unknown, path: ValuePath, report: Report): AgentSettings {
  if (value === undefined || value === null) return {}
  if (!isPlainObject(value)) {
    report(LoaderCodes.CONFIG_INVALID, path, '"agent" must be { maxTurns?, maxParallelToolCalls?, system?, redactSession?, approvals?, approvalExpiresAfterMs? }')
    return {}
  }
  checkKeys(value, AGENT_KEYS, path, 'agent key', report)
  const settings: AgentSettings = {}
  for (const key of ['maxTurns', 'maxParallelToolCalls', 'approvalExpiresAfterMs'] as const) {
    const n = value[key]
    if (n === undefined) continue
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
      report(LoaderCodes.CONFIG_INVALID, [...path, key], `${key} must be a positive integer (got ${JSON.stringify(n)})`)
    } else {
      settings[key] = n
    }
  }
  if (value.system !== undefined) {
    if (typeof value.system !== 'string') report(LoaderCodes.CONFIG_INVALID, [...path, 'system'], 'system must be a string')
    else settings.system = value.system
  }
  if (value.approvals !== undefined) {
    if (value.approvals !== 'ask' && value.approvals !== 'park') {
      report(LoaderCodes.CONFIG_INVALID, [...path, 'approvals'], `approvals must be "ask" (a live asker, else deny) or "park" (the run waits for answers written into the session) (got ${JSON.stringify(value.approvals)})`)
    } else {
      settings.approvals = value.approvals
    }
  }
  const redact = readRedactSession(value.redactSession, [...path, 'redactSession'], report)
  if (redact !== undefined) settings.redactSession = redact
  return settings
}

/** `redactSession`: true, false, or a list of RegExp sources that compile and match something. */
function readRedactSession(value: unknown, path: ValuePath, report: Report): true | string[] | undefined {
  if (value === undefined || value === null || value === false) return undefined
  if (value === true) return true
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    report(LoaderCodes.CONFIG_INVALID, path, 'redactSession must be true (the built-in secret patterns) or a list of extra RegExp sources, e.g. [\'corp-[0-9a-f]{32}\']')
    return undefined
  }
  let ok = true
  value.forEach((source: string, index) => {
    const problem = patternProblem(source)
    if (problem !== undefined) {
      report(LoaderCodes.CONFIG_INVALID, [...path, index], `redactSession[${index}] ${problem}`)
      ok = false
    }
  })
  return ok ? value as string[] : undefined
}

function readExamples(value: unknown, dir: string, report: Report): string[] {
  if (value === undefined || value === null) return []
  const list = typeof value === 'string' ? [value] : value
  if (!Array.isArray(list)) {
    report(LoaderCodes.CONFIG_INVALID, ['examples'], '"examples" must be a list of file paths')
    return []
  }
  return list.flatMap((item, index) => {
    if (typeof item === 'string') return [resolve(dir, item)]
    report(LoaderCodes.CONFIG_INVALID, ['examples', index], 'each example file must be a path string')
    return []
  })
}

function readSession(value: unknown, dir: string, report: Report): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string') return resolve(dir, value)
  report(LoaderCodes.CONFIG_INVALID, ['session'], '"session" must be the path of a JSONL session file')
  return undefined
}

/** Reports every key of `value` not in `known`; true when there was none. */
export function checkKeys(value: Record<string, unknown>, known: readonly string[], path: ValuePath, what: string, report: Report): boolean {
  let ok = true
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      report(LoaderCodes.CONFIG_INVALID, [...path, key], `unknown ${what} "${key}"${didYouMean(key, known)}; valid keys: ${known.join(', ')}`)
      ok = false
    }
  }
  return ok
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

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
