/**
 * The kernel's own config (`ctx.plugin(kernel, { abandonAfterMs })`), checked when it is
 * applied. Plugins' configs are their own; these are the kernel's few knobs.
 */
import { Schema } from 'cordis'
import type { SchemaCompile } from '@rein/schema'

/** How long after a caller's abort a call is given up on by default (DESIGN.md §6.1). */
export const DEFAULT_ABANDON_AFTER_MS = 1000

export interface KernelConfig {
  /** Milliseconds after the caller's signal aborts before a call that has not settled is given up on. */
  abandonAfterMs: number
  /**
   * How a tool's JSON Schema becomes its validator at `register`: by ajv at once (default), or as
   * `@rein/loader` passes it (`compileOnFirstUse`, `compileSimpleFirst`); a bad schema throws at `register` either way.
   */
  compileSchema?: SchemaCompile
}

/** The kernel's config schema. */
export const Config: Schema<Partial<KernelConfig> | undefined, KernelConfig> = Schema.object({
  abandonAfterMs: Schema.natural().default(DEFAULT_ABANDON_AFTER_MS)
    .description('Milliseconds after the caller aborts before a call that has not settled is given up on (ABORTED / ABORTED_BEFORE_DISPATCH).'),
  compileSchema: Schema.function().description('How a tool\'s JSON Schema becomes its validator at register (default: compiled by ajv at once).') as Schema<SchemaCompile | undefined>,
})
