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

/** What a chain's `check` answers for a return value it refuses. */
export class Invalid {
  constructor(readonly problem: string) {}
}

export interface ComposeOptions<A extends unknown[], R> {
  stage: Stage
  /** `once` for decision hooks; `sequential` for `tools/execute`, where a retry calls `next()` again after the previous call settled. */
  reentry: 'once' | 'sequential'
  /** Reads a handler's return value once: the value the chain goes on with, or an `Invalid`. */
  check: (value: unknown) => R | Invalid
  /** The arguments each `next()` call hands inward (default: the same ones). */
  fork?: (args: A) => A
}

type Handler<A extends unknown[], R> = (...args: [...A, () => Promise<R>]) => R | Promise<R>

/** Composes `entries` around `inner`. The returned function rejects only with `PipelineError`. */
export function compose<A extends unknown[], R>(
  entries: readonly ChainEntry<Handler<A, R>>[],
  inner: (...args: A) => Promise<R>,
  { stage, reentry, check, fork }: ComposeOptions<A, R>,
): (...args: A) => Promise<R> {
  if (entries.length === 0) return inner
  const dispatch = (i: number, args: A): Promise<R> => {
    if (i === entries.length) {
      try {
        return inner(...args)
      } catch (error) {
        return Promise.reject(error)
      }
    }
    const { handler, owner, plugin } = entries[i]!
    const fail = (problem: string, cause?: unknown) => new PipelineError(stage, plugin, `plugin "${plugin}" ${problem}`, { cause })
    const wrap = (error: unknown) => isPipelineError(error) ? error : fail(`failed in ${stage}: ${messageOf(error)}`, error)
    let calls = 0
    let pending = false
    let inward: Promise<R> | undefined
    const next = (): Promise<R> => {
      if (reentry === 'once' ? calls > 0 : pending) {
        return Promise.reject(fail(`called next() ${reentry === 'once' ? 'more than once' : 'again before the previous call settled'} in ${stage}`))
      }
      calls++
      inward = dispatch(i + 1, fork ? fork(args) : args)
      if (reentry === 'sequential') {
        pending = true
        const free = () => { pending = false }
        inward.then(free, free)
      }
      return inward
    }
    let value: unknown
    try {
      value = handler.call(owner, ...args, next)
    } catch (error) {
      return Promise.reject(wrap(error))
    }
    // Pass-through: a decision layer that hands on the very promise `next()` gave it adds
    // nothing to check and costs no promise, so a chain of such layers stays synchronous
    // (guarded by test/pass-through.test.ts). What a layer inside answered is checked there;
    // the innermost defaults are constants that pass the check.
    if (reentry === 'once' && inward !== undefined && value === inward) return inward
    return Promise.resolve(value).then((settled) => {
      const checked = check(settled)
      if (checked instanceof Invalid) throw fail(`returned an invalid value from ${stage}: ${checked.problem}`)
      return checked
    }, (error: unknown) => { throw wrap(error) })
  }
  return (...args: A) => dispatch(0, args)
}

/** `error instanceof PipelineError`, false for a value whose prototype cannot be read. */
function isPipelineError(error: unknown): boolean {
  try {
    return error instanceof PipelineError
  } catch {
    return false
  }
}

/** A chain's `check` from a normalizer that answers a copy or a problem string. */
export function checkWith<R>(normalize: (value: unknown) => R | string) {
  return (value: unknown): R | Invalid => {
    const checked = normalize(value)
    return typeof checked === 'string' ? new Invalid(checked) : checked
  }
}
