/**
 * The errors the loader throws at people, and their codes. Every message starts with the
 * place it is about — `rein.yaml:7 plugins[2] (@rein/plugin-retry): ...` — so a reader can
 * jump to the line, and ends with what to do when there is something to do. A load reports
 * every problem it found at once: `ConfigErrors`, one `ConfigError` (one line) each, in file order.
 */
import { isAbsolute, relative } from 'node:path'

/** Why a config could not be loaded. Stable strings: tests and tools may switch on them. */
export const LoaderCodes = {
  /** The file could not be read, or is larger than a config may be. */
  CONFIG_UNREADABLE: 'CONFIG_UNREADABLE',
  /** The YAML parser rejected the file, a mapping repeats a key, or its aliases expand too far. */
  CONFIG_SYNTAX: 'CONFIG_SYNTAX',
  /** A key, section or entry has the wrong shape (unknown key, wrong type, missing `use`). */
  CONFIG_INVALID: 'CONFIG_INVALID',
  /** `${env:NAME}` names a variable that is not set. */
  ENV_MISSING: 'ENV_MISSING',
  /** A package or local file named by `use` does not resolve. */
  MODULE_NOT_FOUND: 'MODULE_NOT_FOUND',
  /** The module resolved but failed to import. */
  MODULE_LOAD_FAILED: 'MODULE_LOAD_FAILED',
  /** The module does not export a cordis plugin. */
  NOT_A_PLUGIN: 'NOT_A_PLUGIN',
  /** A plugin's config fails the plugin's own `Config` schema. */
  PLUGIN_CONFIG_INVALID: 'PLUGIN_CONFIG_INVALID',
  /** A plugin's `apply` threw, or a service it requires is missing. */
  PLUGIN_APPLY_FAILED: 'PLUGIN_APPLY_FAILED',
  /** A plugin's module did not finish loading, or its `apply` did not finish, within `startupTimeoutMs`. */
  PLUGIN_START_TIMEOUT: 'PLUGIN_START_TIMEOUT',
  /** The provider module is not a provider, or `createProvider` failed. */
  PROVIDER_INVALID: 'PROVIDER_INVALID',
  /** The agent cannot be built (no provider, no `createAgent`). */
  AGENT_UNAVAILABLE: 'AGENT_UNAVAILABLE',
} as const

export type LoaderCode = typeof LoaderCodes[keyof typeof LoaderCodes]

/**
 * Where an error points: a file, a 1-based line, and the entry (`plugins[2] (@rein/plugin-retry)`).
 * A harness built in code (`createHarness`) has no file: its errors name the entry only.
 */
export interface Location {
  file?: string
  line?: number
  entry?: string
}

/** A config problem. `message` is the whole sentence, location included. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
  readonly code: LoaderCode
  readonly file: string | undefined
  readonly line: number | undefined
  readonly entry: string | undefined
  /** The message without its location prefix. */
  readonly detail: string

  constructor(code: LoaderCode, where: Location, detail: string, options?: { cause?: unknown }) {
    const at = formatLocation(where)
    super(at ? `${at}: ${detail}` : detail, options)
    this.code = code
    this.file = where.file
    this.line = where.line
    this.entry = where.entry
    this.detail = detail
  }
}

/**
 * Every problem a load found, in file order (by line; entries given in code keep their
 * order). `message` is one line per problem, each the whole `ConfigError` message.
 */
export class ConfigErrors extends AggregateError {
  override readonly name = 'ConfigErrors'
  declare readonly errors: ConfigError[]

  constructor(errors: readonly ConfigError[]) {
    const ordered = inFileOrder(errors)
    super(ordered, ordered.map((error) => error.message).join('\n'))
  }
}

/** `errors` sorted by line, stably: problems on one line, or without lines, keep their order. */
export function inFileOrder(errors: readonly ConfigError[]): ConfigError[] {
  return [...errors].sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
}

/** `rein.yaml:7 plugins[2] (name)`; the file is shown relative to the working directory when inside it. */
export function formatLocation({ file, line, entry }: Location): string {
  const at = file === undefined ? undefined : line === undefined ? displayPath(file) : `${displayPath(file)}:${line}`
  return [at, entry].filter(Boolean).join(' ')
}

/** A path as a person would type it: relative to the working directory when inside it, else absolute. */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file)
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file
}

/**
 * A problem found inside a value, before anyone knows which file or entry it came from; the
 * caller turns it into a `ConfigError` at the line of `path`.
 */
export class ValueProblem extends Error {
  constructor(readonly code: LoaderCode, readonly path: readonly (string | number)[], readonly detail: string) {
    super(detail)
  }
}
