/**
 * The onion. `compose` turns an ordered list of handlers (first = outermost) and an innermost
 * function into one function. It names the plugin behind every failure: a handler that throws,
 * returns something that is not a decision, or calls `next()` when it must not, becomes a
 * `PipelineError` carrying the stage and the plugin's name.
 */
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
  /** Says what is wrong with a handler's return value, or undefined when it is acceptable. */
  check: (value: R) => string | undefined
  /** The arguments each `next()` call hands inward (default: the same ones). */
  fork?: (args: A) => A
}

type Handler<A extends unknown[], R> = (...args: [...A, () => Promise<R>]) => Promise<R>

/** Composes `entries` around `inner`. The returned function rejects only with `PipelineError`. */
export function compose<A extends unknown[], R>(
  entries: readonly ChainEntry<Handler<A, R>>[],
  inner: (...args: A) => Promise<R>,
  options: ComposeOptions<A, R>,
): (...args: A) => Promise<R> {
  if (entries.length === 0) return inner
  const { stage, reentry, check, fork } = options
  return (...initial: A) => {
    const dispatch = async (i: number, args: A): Promise<R> => {
      if (i === entries.length) return inner(...args)
      const entry = entries[i]
      let calls = 0
      let pending = false
      const next = async (): Promise<R> => {
        if (reentry === 'once' ? calls > 0 : pending) {
          const how = reentry === 'once' ? 'more than once' : 'again before the previous call settled'
          throw new PipelineError(stage, entry.plugin, `plugin "${entry.plugin}" called next() ${how} in ${stage}`)
        }
        calls++
        pending = true
        try {
          return await dispatch(i + 1, fork ? fork(args) : args)
        } finally {
          pending = false
        }
      }
      let value: R
      try {
        value = await entry.handler.call(entry.owner, ...args, next)
      } catch (error) {
        if (error instanceof PipelineError) throw error
        const message = error instanceof Error ? error.message : String(error)
        throw new PipelineError(stage, entry.plugin, `plugin "${entry.plugin}" failed in ${stage}: ${message}`, { cause: error })
      }
      const problem = check(value)
      if (problem !== undefined) {
        throw new PipelineError(stage, entry.plugin, `plugin "${entry.plugin}" returned an invalid value from ${stage}: ${problem}`)
      }
      return value
    }
    return dispatch(0, initial)
  }
}
