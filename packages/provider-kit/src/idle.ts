/**
 * The idle timeout of one attempt. Fetch and the body listen to the watch's own signal, which
 * aborts when the caller's signal does (forwarded), or when one wait for the server — the
 * headers, or the next chunk of a body — lasts longer than the window. Only those waits are
 * timed: a consumer that is slow to read the body is never the server's fault.
 */

/** One attempt's signal, the caller's abort forwarded to it, and the idle timer. */
export class IdleWatch {
  private readonly controller = new AbortController()
  private readonly forward = () => { this.controller.abort(this.outer?.reason) }
  private timer: ReturnType<typeof setTimeout> | undefined
  /** True once a wait ran past the window (the attempt is aborted then). */
  timedOut = false

  constructor(readonly ms: number, private readonly outer?: AbortSignal) {
    if (outer?.aborted) this.forward()
    else outer?.addEventListener('abort', this.forward, { once: true })
  }

  /** What fetch and the body listen to. */
  get signal(): AbortSignal { return this.controller.signal }

  /** Runs `step`; when it has not settled within the window, aborts the attempt and rejects. */
  async wait<T>(step: () => Promise<T>): Promise<T> {
    let expire: (reason: Error) => void = () => {}
    const expired = new Promise<never>((_, reject) => { expire = reject })
    this.timer = setTimeout(() => {
      this.timedOut = true
      const reason = new Error(`nothing received for ${this.ms} ms`)
      this.controller.abort(reason)
      expire(reason)
    }, this.ms)
    try {
      return await Promise.race([step(), expired])
    } finally {
      clearTimeout(this.timer)
    }
  }

  /** Stops the timer and the forwarding: the attempt is over. */
  dispose(): void {
    clearTimeout(this.timer)
    this.outer?.removeEventListener('abort', this.forward)
  }
}
