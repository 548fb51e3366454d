/**
 * The kernel's own config (`ctx.plugin(kernel, { abandonAfterMs })`), checked when it is
 * applied. Plugins' configs are their own; these are the kernel's few knobs.
 */
import { Schema } from 'cordis'

/** How long after a caller's abort a call is given up on by default (DESIGN.md §6.1). */
export const DEFAULT_ABANDON_AFTER_MS = 1000

export interface KernelConfig {
  /** Milliseconds after the caller's signal aborts before a call that has not settled is given up on. */
  abandonAfterMs: number
  /**
   * When ajv compiles a tool's JSON Schemas: `register` (default: the first call is as fast as
   * any other) or `first-use` (a process that only inspects a harness, like `rein chains`,
   * never loads ajv). Either way a schema is checked at `register`, and a bad one throws there.
   */
  compileSchemas: 'register' | 'first-use'
}

/** The kernel's config schema. */
export const Config: Schema<Partial<KernelConfig> | undefined, KernelConfig> = Schema.object({
  abandonAfterMs: Schema.natural().default(DEFAULT_ABANDON_AFTER_MS)
    .description('Milliseconds after the caller aborts before a call that has not settled is given up on (ABORTED / ABORTED_BEFORE_DISPATCH).'),
  compileSchemas: Schema.union(['register', 'first-use']).default('register')
    .description('When ajv compiles tool schemas: at register (default), or on first use (for a process that only inspects a harness).'),
})
