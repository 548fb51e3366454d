/**
 * The plugin's configuration (DESIGN.md §4), validated when the plugin is loaded: a bad value
 * fails `ctx.plugin(spill, config)` with a message naming the key. `capFor` is the one place
 * that decides which cap applies to a tool; `maxBatchBytes` bounds a whole batch (`batch.ts`).
 */
import { Schema } from 'cordis'
import { createRedactor, patternProblem } from '@rein/redact'
import { DEFAULT_MAX_STORE_BYTES } from './bound.js'

export type StoreKind = 'local' | 'memory' | 'external'

export interface SpillConfig {
  /** Results whose text is larger than this many UTF-8 bytes are spilled. */
  maxInlineBytes: number
  /** Per-tool caps that override `maxInlineBytes`. */
  tools: Record<string, number>
  /** The most UTF-8 bytes one batch's results may show inline together; unset: no batch budget. */
  maxBatchBytes?: number
  /** Where spilled outputs go. `external`: a `spillStore` service provided by another plugin. */
  store: StoreKind
  /** The directory of the `local` store. */
  dir?: string
  /**
   * The most bytes the built-in store (`local` or `memory`) keeps; past it the oldest spilled
   * outputs are removed first, and reading one fails `SPILL_EXPIRED`. Default 256 MiB.
   */
  maxStoreBytes: number
  /**
   * Redact what is spilled (`@rein/redact`'s built-in patterns): `true`, or a list of extra
   * RegExp sources redacted after the built-ins, as audit's `redact`. Default `false`.
   */
  redact: boolean | string[]
}

const Fields = Schema.object({
  maxInlineBytes: Schema.natural().min(1).default(50_000)
    .description('Results whose text exceeds this many UTF-8 bytes are spilled and replaced by a preview.'),
  tools: Schema.dict(Schema.natural().min(1)).default({})
    .description('Per-tool caps in bytes, by tool name; they override maxInlineBytes.'),
  maxBatchBytes: Schema.natural().min(1)
    .description('The most bytes the results of one batch (one assistant message) show inline together; later results past it are spilled.'),
  store: Schema.union(['local', 'memory', 'external']).default('local')
    .description('local: private files; memory: in process; external: a spillStore service from another plugin.'),
  maxStoreBytes: Schema.natural().min(1).default(DEFAULT_MAX_STORE_BYTES)
    .description('The most bytes of spilled outputs the local or memory store keeps; the oldest are removed first (default 256 MiB).'),
  dir: Schema.string()
    .description('Directory of the local store (created 0700). Default: a new directory under the OS temp dir.'),
  redact: Schema.union([Schema.boolean(), Schema.array(Schema.string())]).default(false)
    .description('Redact spilled outputs: true for the built-in secret patterns, or a list of extra RegExp sources.'),
})

/** Checks what one key cannot check alone; an empty `maxBatchBytes` (YAML `null`) means unset. */
function checkResolved(config: SpillConfig): SpillConfig {
  if (config.dir !== undefined && config.store !== 'local') {
    throw new TypeError(`$.dir is only used by store "local", but store is "${config.store}"; remove dir or set store: local`)
  }
  if (Array.isArray(config.redact)) {
    config.redact.forEach((source, index) => {
      const problem = patternProblem(source)
      if (problem !== undefined) throw new TypeError(`$.redact[${index}] ${problem}`)
    })
  }
  if (config.maxBatchBytes !== null) return config
  const { maxBatchBytes: _unset, ...rest } = config
  return rest
}

/** The cordis config schema of `@rein/plugin-spill`. */
// The check runs on the resolved config (`preserve`); the outer default lets an omitted config
// resolve to every field's default first.
export const Config: Schema<Partial<SpillConfig>, SpillConfig> =
  Schema.transform(Fields, (value) => checkResolved(value as SpillConfig), true).default({} as SpillConfig)

/** The redactor `redact` asks for, or undefined when spilled outputs are kept as they are. */
export function spillRedactor(config: SpillConfig): ((text: string) => string) | undefined {
  if (config.redact === false || config.redact === undefined) return undefined
  return createRedactor([], { extra: config.redact === true ? [] : config.redact })
}

/** The cap for `tool`: its override, else `maxInlineBytes`. */
export function capFor(config: SpillConfig, tool: string): number {
  return Object.hasOwn(config.tools, tool) ? config.tools[tool] : config.maxInlineBytes
}
