/**
 * The budget's configuration, checked once at load (by cordis at `ctx.plugin(...)`, and by the
 * loader): an unknown key, a negative limit, a number that is not finite (NaN, Infinity) or a
 * `cost` glob that cannot compile fails the load with a message naming the key. Schemastery
 * alone drops an unknown key without a word, so the raw object is checked for them first: a
 * misspelt `maxCals` must not load as "no limit".
 */
import { Schema } from 'cordis'
import { compileGlob, GlobError } from './glob.js'

/** What happens when a limit is crossed. */
export type OnExceeded = 'refuse' | 'end-run'

export interface Config {
  /** Calls per session (every call that reaches `tools/execute`); absent: no limit. */
  maxCalls?: number
  /** Calls of any one tool per session; absent: no limit. */
  maxCallsPerTool?: number
  /** Milliseconds spent inside `tools/execute` (the body and the layers inside budget), summed per session. */
  maxToolMs?: number
  /** The sum of `cost` over the calls that ran, per session. */
  maxCost?: number
  /** What a call of a tool costs: the first glob (in the order written) matching its name; none matching costs 0. */
  cost: Record<string, number>
  /** `refuse` the call (`BUDGET_EXCEEDED`), or also `end-run` after its batch. */
  onExceeded: OnExceeded
  /** The same tool with the same arguments this many times within `window` calls is refused `LOOP_DETECTED`; 0 turns the loop breaker off. */
  repeat: number
  /** How many of the latest calls the loop breaker looks at (this one included). */
  window: number
}

/** What a user may write. */
export type ConfigInput = Partial<Config>

const Shape = Schema.object({
  maxCalls: Schema.natural().description('Calls per session; absent: no limit.'),
  maxCallsPerTool: Schema.natural().description('Calls of any one tool per session; absent: no limit.'),
  maxToolMs: Schema.natural().description('Milliseconds inside tools/execute, summed per session; absent: no limit.'),
  maxCost: Schema.number().min(0).description('The sum of cost over the calls that ran, per session; absent: no limit.'),
  cost: Schema.dict(Schema.number().min(0)).default({}).description('Tool glob -> what one call costs (the first matching glob wins).'),
  onExceeded: Schema.union(['refuse', 'end-run'] as const).default('refuse').description('refuse the call, or also end the run after its batch.'),
  repeat: Schema.natural().default(3).description('Identical calls within window that trip the loop breaker (0: off).'),
  window: Schema.natural().min(1).default(10).description('How many of the latest calls the loop breaker looks at.'),
})

const KEYS = Object.keys(Shape.dict ?? {})

function check(raw: unknown): Config {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw new Schema.ValidationError(`the budget config must be an object of settings, got ${Array.isArray(raw) ? 'an array' : typeof raw}`, { path: [] })
  }
  const unknown = Object.keys(raw ?? {}).find((key) => !KEYS.includes(key))
  if (unknown !== undefined) {
    throw new Schema.ValidationError(`is not a budget setting; valid keys: ${KEYS.join(', ')}`, { path: [unknown] })
  }
  checkFinite(raw as Record<string, unknown> | null | undefined)
  const config = Shape((raw ?? {}) as ConfigInput) as Config
  for (const glob of Object.keys(config.cost)) {
    try {
      compileGlob(glob)
    } catch (error) {
      if (!(error instanceof GlobError)) throw error
      throw new Schema.ValidationError(`has a tool glob that cannot compile: ${error.message}`, { path: ['cost', glob] })
    }
  }
  if (config.repeat === 1) {
    throw new Schema.ValidationError('must be at least 2 (1 would refuse every call), or 0 to turn the loop breaker off', { path: ['repeat'] })
  }
  if (config.repeat > config.window) {
    throw new Schema.ValidationError(`is ${config.window}, fewer than repeat (${config.repeat}): the loop breaker could never trip; make it at least ${config.repeat}`, { path: ['window'] })
  }
  return config
}

/**
 * Schemastery takes NaN and Infinity as numbers >= 0, so `maxCost: .nan` would load as no
 * limit and a NaN cost would fail every call: every number must be finite.
 */
function checkFinite(raw: Record<string, unknown> | null | undefined): void {
  for (const key of KEYS) {
    const value = raw?.[key]
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new Schema.ValidationError(`is ${value}; it must be a finite number >= 0 (leave the key out for no limit)`, { path: [key] })
    }
  }
  const cost = raw?.cost
  if (typeof cost !== 'object' || cost === null) return
  for (const [glob, value] of Object.entries(cost)) {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new Schema.ValidationError(`is ${value}; a cost must be a finite number >= 0`, { path: ['cost', glob] })
    }
  }
}

/** The schema cordis validates the plugin config with at load; fills in the defaults. */
export const Config: Schema<ConfigInput | undefined, Config> = Schema.transform(Schema.any(), check, true).default({} as Config) as never
