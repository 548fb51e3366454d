/**
 * A counting limit on calls in flight, with a FIFO queue whose waiters leave when their
 * signal aborts. The pool keeps its own queue empty this way: tinypool only replaces an
 * aborted worker up to `minThreads`, so a task it had queued behind that worker would wait
 * forever; with at most `maxThreads` calls submitted, every call finds a worker or starts one.
 */

export class Slots {
  #free: number
  #waiting: Array<() => void> = []

  constructor(size: number) {
    this.#free = size
  }

  /** Resolves with a release function once a slot is free; rejects with the signal's reason if it aborts first. */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason)
    if (this.#free > 0) {
      this.#free--
      return Promise.resolve(this.#releaser())
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', leave)
        resolve(this.#releaser())
      }
      const leave = () => {
        this.#waiting.splice(this.#waiting.indexOf(grant), 1)
        reject(signal.reason)
      }
      this.#waiting.push(grant)
      signal.addEventListener('abort', leave, { once: true })
    })
  }

  /** A release that hands the slot to the next waiter (or frees it); calling it twice does nothing. */
  #releaser(): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      const next = this.#waiting.shift()
      if (next) next()
      else this.#free++
    }
  }
}
