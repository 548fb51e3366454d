/**
 * The onion. `compose` turns an ordered list of handlers (first = outermost) and an innermost
 * function into one function. It names the plugin behind every failure: a handler that throws,
 * returns something that is not a decision, or calls `next()` when it must not, becomes a
 * `PipelineError` carrying the stage and the plugin's name.
 */
import { messageOf } from './hostile.js'
import type { Stage } from './hooks.js'

/** A handler in a chain, and who registered it. */
export interface ChainEntry<H> {
  readonly handler: H
  /** `this` for the handler: the registering plugin's context. */
  readonly owner: unknown
  /** The registering plugin's name, for errors and `rein chains`. */
  readonly plugin: string
}

/** A failure of a plugin handler, or of the hook contract, at one stage. */
export class PipelineError extends Error {
  constructor(readonly stage: Stage, readonly plugin: string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'PipelineError'
  }
}

/**
 * How often a handler may call `next()`: `once` for decision hooks; `sequential` for
 * `tools/execute`, where a retry calls it again after the previous call settled.
 */
export type Reentry = 'once' | 'sequential'

export interface ComposeOptions<A extends unknown[], R> {
  stage: Stage
  reentry: Reentry
  /**
   * Reads a handler's return value once: the value (or a checked copy of it) the chain goes
   * on with, or an `Invalid` saying what is wrong with it.
   */
  check: (value: unknown) => R | Invalid
  /** The arguments each `next()` call hands inward (default: the same ones). */
  fork?: (args: A) => A
  /**
   * The innermost function answers values `check` would pass as they are (a constant default,
   * such as pre-execute's allow): a layer that returns the very promise its `next()` gave it
   * then needs no check of its own, whichever layer it is.
   */
  innerChecked?: boolean
}

type Handler<A extends unknown[], R> = (...args: [...A, () => Promise<R>]) => Promise<R>

/** What a chain's `check` answers for a return value it refuses. */
export class Invalid {
  constructor(readonly problem: string) {}
}

/** `error instanceof PipelineError`, false for a value whose prototype cannot be read. */
function isPipelineError(error: unknown): error is PipelineError {
  try {
    return error instanceof PipelineError
  } catch {
    return false
  }
}

/**
 * Composes `entries` around `inner`. The returned function rejects only with `PipelineError`.
 * It runs on every call of every tool, so it is written without async functions, argument
 * spreads or per-call closures beyond the one `next` each layer needs: each of those costs an
 * allocation per layer per call, and together they were the largest share of a call's garbage.
 * A layer of a `once` chain that returns what its `next()` gave it costs no promise at all, so
 * a pre-execute handler that allows by handing `next()` on leaves the stage synchronous.
 */
export function compose<A extends unknown[], R>(
  entries: readonly ChainEntry<Handler<A, R>>[],
  inner: (...args: A) => Promise<R>,
  options: ComposeOptions<A, R>,
): (...args: A) => Promise<R> {
  if (entries.length === 0) return inner
  const { stage, reentry, check, fork, innerChecked = false } = options
  const last = entries.length
  // What each layer's returned value goes through, made once per chain, not per call.
  const accept = entries.map((entry) => (value: unknown): R => {
    const checked = check(value)
    if (checked instanceof Invalid) {
      throw new PipelineError(stage, entry.plugin, `plugin "${entry.plugin}" returned an invalid value from ${stage}: ${checked.problem}`)
    }
    return checked
  })
  const refuse = entries.map((entry) => (error: unknown): never => {
    if (isPipelineError(error)) throw error
    throw new PipelineError(stage, entry.plugin, `plugin "${entry.plugin}" failed in ${stage}: ${messageOf(error)}`, { cause: error })
  })

  /**
   * Layer `i` with `args`. `over`, given by a `sequential` layer's `next()`, is called once layer
   * `i` has settled, in the same reaction that checks its value: telling the outer layer its
   * `next()` is free again costs no promise of its own.
   */
  const dispatch = (i: number, args: A, over?: () => void): Promise<R> => {
    if (i === last) {
      let inward: Promise<R>
      try {
        inward = args.length === 1 ? (inner as unknown as (a: unknown) => Promise<R>)(args[0]) : inner(...args)
      } catch (error) {
        over?.()
        return Promise.reject(error)
      }
      if (over) inward.then(over, over)
      return inward
    }
    const entry = entries[i]!
    let calls = 0
    let pending = false
    // What next() handed this layer last, when it was already checked (see `innerChecked`).
    let checkedInward: Promise<R> | undefined
    const next = (): Promise<R> => {
      if (reentry === 'once' ? calls > 0 : pending) {
        const how = reentry === 'once' ? 'more than once' : 'again before the previous call settled'
        return Promise.reject(new PipelineError(stage, entry.plugin, `plugin "${entry.plugin}" called next() ${how} in ${stage}`))
      }
      calls++
      if (reentry === 'sequential') {
        pending = true
        return dispatch(i + 1, fork ? fork(args) : args, () => { pending = false })
      }
      const inward = dispatch(i + 1, fork ? fork(args) : args)
      if (i + 1 < last || innerChecked) checkedInward = inward
      return inward
    }
    try {
      const handler = entry.handler as unknown as (...values: unknown[]) => unknown
      const value = args.length === 1
        ? handler.call(entry.owner, args[0], next)
        : args.length === 2 ? handler.call(entry.owner, args[0], args[1], next) : handler.call(entry.owner, ...args, next)
      // Handed on as it came (`return next()`): checked already, and no promise of its own.
      if (checkedInward !== undefined && value === checkedInward) return checkedInward
      if (!over) return Promise.resolve(value).then(accept[i], refuse[i])
      const accepted = accept[i]!
      const refused = refuse[i]!
      return Promise.resolve(value).then((settled) => {
        over()
        return accepted(settled)
      }, (error: unknown) => {
        over()
        return refused(error)
      })
    } catch (error) {
      over?.()
      try {
        refuse[i]!(error)
      } catch (wrapped) {
        return Promise.reject(wrapped)
      }
      return Promise.reject(error)
    }
  }
  return (...initial: A) => dispatch(0, initial)
}

/** A chain's `check` from a normalizer that answers a copy or a problem string. */
export function checkWith<R>(normalize: (value: unknown) => R | string) {
  return (value: unknown): R | Invalid => {
    const checked = normalize(value)
    return typeof checked === 'string' ? new Invalid(checked) : checked
  }
}
