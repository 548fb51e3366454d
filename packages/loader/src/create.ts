/**
 * `createHarness(options)`: the harness `loadHarness` builds from a rein.yaml, built from values
 * in code by the same builder — the kernel, then `plugins`, then `tools` (plugins, or tools
 * made with `defineTool`), in order (first = outermost), each applied and awaited before the next. Every problem (an unknown option, an
 * entry that is not a plugin, a config its schema rejects, a plugin that does not start) is
 * reported at once as `ConfigErrors` naming each entry (`plugins[1] (retry): ...`): a harness
 * is never returned with a plugin silently missing. Values are used as given: no `${env:...}`
 * substitution and no path resolution.
 */
import type { Provider } from '@rein/kernel'
import type { SessionStore } from '@rein/agent'
import { buildHarness, type BuiltHarness, type EntryPlan } from './build.js'
import { checkKeys, isPlainObject, readAgentSettings, type AgentSettings, type Report } from './config.js'
import { ConfigError, LoaderCodes, ValueProblem } from './errors.js'
import { didYouMean } from './suggest.js'
import { pluginOf } from './modules.js'
import { isProvider } from './provider.js'
import { ENTRY_SHAPES, isToolValue, toolPlugin } from './tool-entry.js'
import { DEFAULT_STARTUP_TIMEOUT_MS, readStartupTimeout } from './startup-deadline.js'
import type { ValuePath } from './source.js'

/** A cordis plugin: an object with `apply`, a function or a class, or a module namespace exporting one. */
export type PluginValue = object

/**
 * A plugin or tool entry: the plugin alone, `[plugin, config?]`, or `{ plugin, config?, optional? }`;
 * under `tools`, also a tool made with `defineTool(...)` (JSON Schema or Standard Schema parameters).
 */
export type HarnessEntry =
  | PluginValue
  | readonly [plugin: PluginValue, config?: unknown]
  | { plugin: PluginValue, config?: unknown, optional?: boolean }

/** What `createHarness` builds. */
export interface HarnessOptions {
  /** The model provider; without one, reading `harness.agent` throws. */
  provider?: Provider
  /** Policy plugins, in onion order (first = outermost). */
  plugins?: readonly HarnessEntry[]
  /** Tool sources and single tools (`defineTool(...)` values), applied after the plugins. */
  tools?: readonly HarnessEntry[]
  /** Settings for `createAgent`. */
  agent?: AgentSettings
  /** A session store (the caller closes it); default: in memory. */
  session?: SessionStore
  /** How long each entry's module may take to load, and then its `apply` to finish, in ms. Default 30000. */
  startupTimeoutMs?: number
}

const OPTION_KEYS = ['provider', 'plugins', 'tools', 'agent', 'session', 'startupTimeoutMs'] as const
const ENTRY_KEYS = ['plugin', 'config', 'optional'] as const

/** Builds a harness from code. Throws `ConfigErrors` with every problem, after stopping what it started. */
export async function createHarness(options: HarnessOptions): Promise<BuiltHarness> {
  const problems: ConfigError[] = []
  const report: Report = (code, path, detail) => { problems.push(new ConfigError(code, { entry: labelOf(path) }, detail)) }
  const given: Record<string, unknown> = isPlainObject(options) ? options : {}
  if (!isPlainObject(options)) report(LoaderCodes.CONFIG_INVALID, [], 'createHarness takes { provider, plugins, tools, agent?, session?, startupTimeoutMs? }')
  checkKeys(given, OPTION_KEYS, [], 'option', report)
  if (given.provider !== undefined && !isProvider(given.provider)) {
    report(LoaderCodes.PROVIDER_INVALID, ['provider'], 'a provider is an object with generate(req)')
  }
  const entries = (['plugins', 'tools'] as const).flatMap((section) => {
    const list = given[section]
    if (list === undefined) return []
    if (!Array.isArray(list)) {
      report(LoaderCodes.CONFIG_INVALID, [section], `"${section}" must be a list; an entry is ${ENTRY_SHAPES}`)
      return []
    }
    return list.map((value: unknown, index) => codeEntryPlan(section, index, value))
  })
  const agent = readAgentSettings(given.agent, ['agent'], report)
  const startupMs = readStartupTimeout(given.startupTimeoutMs, ['startupTimeoutMs'], report) ?? DEFAULT_STARTUP_TIMEOUT_MS
  return buildHarness({
    entries,
    problems,
    provider: async () => isProvider(given.provider) ? given.provider : undefined,
    agent: { file: undefined, builder: 'createHarness', settings: agent, session: given.session as SessionStore | undefined, sessionPath: undefined },
    startup: { ms: startupMs, setting: 'the startupTimeoutMs option of createHarness' },
  })
}

/**
 * The build plan of one entry given in code. An entry of the wrong shape fails when loaded,
 * so that its problem is reported in its place among the others.
 */
function codeEntryPlan(section: 'plugins' | 'tools', index: number, value: unknown): EntryPlan {
  const { plugin, config, optional, problem } = readEntry(value)
  const label = `${section}[${index}]${problem ? '' : nameOf(plugin)}`
  return {
    label,
    optional,
    entry: undefined,
    load: async () => {
      if (problem) throw problem
      if (isToolValue(plugin)) {
        if (section === 'tools') return { plugin: toolPlugin(plugin, config), file: undefined, config: undefined }
        throw new ValueProblem(LoaderCodes.NOT_A_PLUGIN, [], `this is the tool ${JSON.stringify(plugin.name)}, not a plugin: list it under tools`)
      }
      if (section === 'tools' && isPlainObject(plugin) && typeof plugin.apply !== 'function') {
        throw new ValueProblem(LoaderCodes.NOT_A_PLUGIN, [], `this value is neither a plugin nor a tool; an entry is ${ENTRY_SHAPES}` + keysOf(plugin))
      }
      return { plugin: pluginOf(plugin, 'value'), file: undefined, config }
    },
    locate: () => ({ entry: label }),
  }
}

/** The parts of an entry: the plugin alone, `[plugin, config?]` or `{ plugin, config?, optional? }`. */
function readEntry(value: unknown): { plugin?: unknown, config?: unknown, optional: boolean, problem?: ValueProblem } {
  const invalid = (detail: string) => ({ optional: false, problem: new ValueProblem(LoaderCodes.CONFIG_INVALID, [], detail) })
  if (Array.isArray(value)) {
    if (value.length < 1 || value.length > 2) return invalid(`an entry list is [plugin, config?] (got ${value.length} items)`)
    return { plugin: value[0], config: value[1], optional: false }
  }
  if (!isPlainObject(value) || !('plugin' in value) || typeof value.apply === 'function') return { plugin: value, optional: false }
  const unknown = Object.keys(value).find((key) => !(ENTRY_KEYS as readonly string[]).includes(key))
  if (unknown !== undefined) {
    return invalid(`unknown entry key "${unknown}"${didYouMean(unknown, ENTRY_KEYS)}; valid keys: ${ENTRY_KEYS.join(', ')}`)
  }
  if (value.optional !== undefined && typeof value.optional !== 'boolean') {
    return invalid(`"optional" must be true or false (got ${JSON.stringify(value.optional)})`)
  }
  return { plugin: value.plugin, config: value.config, optional: value.optional === true }
}

/** `; it has the keys: a, b` (what a user passed, to see what is missing). */
function keysOf(value: Record<string, unknown>): string {
  const keys = Object.keys(value)
  return keys.length ? `; it has the keys: ${keys.join(', ')}` : '; it is an empty object'
}

/** ` (retry)`: the plugin's name, when it has one (a tool's name for a tool). */
function nameOf(value: unknown): string {
  if (isToolValue(value)) return typeof value.name === 'string' && value.name !== '' ? ` (${value.name})` : ''
  try {
    const name = (pluginOf(value, 'value') as { name?: unknown }).name
    return typeof name === 'string' && name !== '' && name !== 'apply' ? ` (${name})` : ''
  } catch (error) {
    if (error instanceof ValueProblem) return ''
    throw error
  }
}

/** How an options-level problem is named: `agent`, `plugins`; nothing for an unknown option. */
function labelOf(path: ValuePath): string | undefined {
  const [section] = path
  return (OPTION_KEYS as readonly unknown[]).includes(section) ? String(section) : undefined
}
