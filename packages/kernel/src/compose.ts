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
  // `settled` (sequential re-entry: the layer outside may call next() again once it ran) runs in
  // the reaction that settles this part, not one of its own: one promise per call, not per layer.
  const dispatch = (i: number, args: A, settled?: () => void): Promise<R> => {
    if (i === entries.length) {
      let out: Promise<R>
      try {
        out = inner(...args)
      } catch (error) {
        out = Promise.reject(error)
      }
      if (settled) out.then(settled, settled)
      return out
    }
    const { handler, owner, plugin } = entries[i]!
    const fail = (problem: string, cause?: unknown) => new PipelineError(stage, plugin, `plugin "${plugin}" ${problem}`, { cause })
    const wrap = (error: unknown) => isPipelineError(error) ? error : fail(`failed in ${stage}: ${messageOf(error)}`, error)
    let calls = 0
    let pending = false
    let inward: Promise<R> | undefined
    let through = false // handed on next()'s promise: the layer outside hears when it settles
    const free = () => {
      pending = false
      if (!through) return
      through = false
      settled?.()
    }
    const next = (): Promise<R> => {
      if (reentry === 'once' ? calls > 0 : pending) {
        return Promise.reject(fail(`called next() ${reentry === 'once' ? 'more than once' : 'again before the previous call settled'} in ${stage}`))
      }
      calls++
      pending = reentry === 'sequential'
      return inward = dispatch(i + 1, fork ? fork(args) : args, pending ? free : undefined)
    }
    let value: unknown
    try {
      value = handler.call(owner, ...args, next)
    } catch (error) {
      const rejected = Promise.reject(wrap(error))
      if (settled) rejected.then(settled, settled)
      return rejected
    }
    // Pass-through: a layer that hands on the very promise `next()` gave it adds nothing to check
    // and costs no promise (test/pass-through.test.ts). What a layer inside answered is checked
    // there; the innermost defaults are constants that pass the check.
    if (inward !== undefined && value === inward) {
      through = true
      return inward
    }
    return Promise.resolve(value).then((answer) => {
      settled?.()
      const checked = check(answer)
      if (checked instanceof Invalid) throw fail(`returned an invalid value from ${stage}: ${checked.problem}`)
      return checked
    }, (error: unknown) => {
      settled?.()
      throw wrap(error)
    })
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
