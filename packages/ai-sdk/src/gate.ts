/**
 * A readers–writer gate for the calls of one `reinTools` set, so that a write never races a
 * read, as in rein's own agent: a `'parallel'` call shares the gate with other parallel calls; an
 * `'exclusive'` call waits for every call admitted before it and holds back every call that
 * comes after it until it ends. Calls are admitted in the order they asked (first come, first
 * served: nothing passes a waiting call, so an exclusive call is never starved).
 */
import type { ExecutionMode } from '@rein/kernel'

/** Gives the gate back; calling it again does nothing. */
export type Release = () => void

interface Waiter {
  readonly mode: ExecutionMode
  readonly admit: () => void
}

export class ModeGate {
  private parallel = 0
  private exclusive = false
  private readonly waiting: Waiter[] = []

  /**
   * Resolves with the release once a call of `mode` may run, or with `undefined`, holding
   * nothing, if `signal` fires while it waits (the caller lets the kernel settle the aborted call;
   * the calls behind it move up).
   */
  enter(mode: ExecutionMode, signal?: AbortSignal): Promise<Release | undefined> {
    if (this.waiting.length === 0 && this.fits(mode)) return Promise.resolve(this.take(mode))
    if (signal?.aborted) return Promise.resolve(undefined)
    return new Promise((resolve) => {
      const onAbort = () => {
        const index = this.waiting.indexOf(waiter)
        if (index < 0) return
        this.waiting.splice(index, 1)
        resolve(undefined)
        this.admit()
      }
      const waiter: Waiter = {
        mode,
        admit: () => {
          signal?.removeEventListener('abort', onAbort)
          resolve(this.take(mode))
        },
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.waiting.push(waiter)
    })
  }

  private fits(mode: ExecutionMode): boolean {
    return mode === 'parallel' ? !this.exclusive : !this.exclusive && this.parallel === 0
  }

  /** Takes a place now (the counts change before the next waiter is looked at). */
  private take(mode: ExecutionMode): Release {
    if (mode === 'parallel') this.parallel++
    else this.exclusive = true
    let released = false
    return () => {
      if (released) return
      released = true
      if (mode === 'parallel') this.parallel--
      else this.exclusive = false
      this.admit()
    }
  }

  /** Admits the waiters at the head of the line that fit, in order. */
  private admit(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0].mode)) this.waiting.shift()!.admit()
  }
}
