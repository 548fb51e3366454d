/**
 * A caller's abort is sovereign (DESIGN.md §6.1). Once the caller's signal aborts, a call
 * settles within `abandonAfterMs` even when a plugin swapped in a signal that is not linked
 * to the caller's and the body ignores every signal: the kernel stops waiting and gives the
 * call its abandoned outcome. The work itself is not stopped (nothing can stop a body that
 * ignores its signal; `@rein/isolate` runs such bodies where they can be terminated).
 */

/** Waits for `work`, or, from `ms` after `signal` aborts, for `giveUp()` instead. */
export function settleWithin<T>(work: Promise<T>, signal: AbortSignal, ms: number, giveUp: () => T): Promise<T> {
  return new Promise<T>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const onAbort = () => {
      timer = setTimeout(() => resolve(giveUp()), ms)
    }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    void work.then((value) => {
      if (timer !== undefined) clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      resolve(value)
    })
  })
}

/** What `untilAborted` resolves with when the signal won. */
export const ABORTED_FIRST: unique symbol = Symbol('rein.aborted-first')

/**
 * `work`'s value, or `ABORTED_FIRST` as soon as `signal` aborts (whatever `work` does later).
 * A rejection of `work` passes through.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED_FIRST> {
  if (signal.aborted) return Promise.resolve(ABORTED_FIRST)
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED_FIRST)
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(
      (value) => { signal.removeEventListener('abort', onAbort); resolve(value) },
      (error) => { signal.removeEventListener('abort', onAbort); reject(error) },
    )
  })
}
