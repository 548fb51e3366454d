/**
 * A caller's abort is sovereign (DESIGN.md §6.1): a call settles within `abandonAfterMs` of it
 * whatever its plugins and body do. The kernel stops waiting; the work itself is not stopped
 * (`@rein/isolate` runs bodies that ignore their signal where they can be terminated).
 */
import { ABORTED, ABORTED_BEFORE_DISPATCH, Messages } from './codes.js'
import { CALL, type Exec } from './exec.js'
import { abortedFrom, failure } from './results.js'
import type { ToolExecutionResult } from '@rein/types'

/**
 * One `abort` listener per signal, however many calls wait on it: a run's signal is shared by
 * every call of its batch, and a listener each would cost time and trip Node's leak warning.
 */
export class AbortWatch {
  private readonly waiting = new WeakMap<AbortSignal, Set<() => void>>()
  /**
   * The retained batch: the call watched most recently (and through it its batch), held until
   * the next call. Without it a full GC between batches lets V8 drop the optimized code of the
   * whole call path (docs/performance.md, "the retained batch"). Costs one finished batch.
   */
  private last: (() => void) | undefined

  /** Calls `callback` when `signal` aborts (at once if it has); returns the function that cancels it. */
  on(signal: AbortSignal, callback: () => void): () => void {
    this.last = callback
    if (signal.aborted) {
      callback()
      return noop
    }
    const callbacks = this.waiting.get(signal) ?? this.listen(signal)
    callbacks.add(callback)
    return () => { callbacks.delete(callback) }
  }

  /**
   * The one listener of `signal`, and the set of callbacks it calls. A function of its own: a
   * listener made inside `on` would share that call's closure scope, and so keep its first
   * callback (and the whole call behind it) alive for as long as the signal lives.
   */
  private listen(signal: AbortSignal): Set<() => void> {
    const set = new Set<() => void>()
    this.waiting.set(signal, set)
    signal.addEventListener('abort', () => {
      this.waiting.delete(signal)
      for (const waiter of set) waiter()
    }, { once: true })
    return set
  }
}

const noop = () => {}

/**
 * Waits for `work` (a rejection becomes `failed(error)`), or, from `ms` after `signal` aborts,
 * for `giveUp()` instead; either may answer a promise, which is then waited for. One promise
 * per call: it runs for every call with a signal.
 */
export function settleWithin<T>(
  watch: AbortWatch, work: Promise<T>, failed: (error: unknown) => T | PromiseLike<T>, signal: AbortSignal, ms: number,
  giveUp: () => T | PromiseLike<T>,
): Promise<T> {
  return new Promise<T>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const cancel = watch.on(signal, () => {
      timer = setTimeout(() => resolve(giveUp()), ms)
    })
    const settle = (value: T | PromiseLike<T>) => {
      cancel()
      if (timer !== undefined) clearTimeout(timer)
      resolve(value)
    }
    work.then(settle, (error: unknown) => settle(failed(error)))
  })
}

/** What `untilAborted` resolves with when the signal won. */
export const ABORTED_FIRST: unique symbol = Symbol('rein.aborted-first')

/** `work`'s value, or `ABORTED_FIRST` as soon as `signal` aborts; a rejection of `work` passes through. */
export function untilAborted<T>(watch: AbortWatch, work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED_FIRST> {
  return new Promise((resolve, reject) => {
    const cancel = watch.on(signal, () => resolve(ABORTED_FIRST))
    work.then(
      (value) => { cancel(); resolve(value) },
      (error) => { cancel(); reject(error) },
    )
  })
}

/**
 * What a call the kernel gave up on (its caller aborted `abandonAfterMs` ago) settles with:
 * the failure it had already reached; `ABORTED` if its body had started (or had succeeded);
 * `ABORTED_BEFORE_DISPATCH` if it never reached its body (a hook or an approval still pending).
 */
export function abandoned(exec: Exec): ToolExecutionResult {
  const { outcome, bodyStarted } = exec[CALL]
  if (outcome?.isError) return outcome
  if (outcome) return abortedFrom(outcome)
  return bodyStarted ? failure(ABORTED, Messages.aborted, 'Abandoned') : failure(ABORTED_BEFORE_DISPATCH, Messages.abortedBeforeDispatch, 'Abandoned')
}
