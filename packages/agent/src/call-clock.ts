/**
 * One call's clock (ms since the epoch): the scheduler marks its start and its final result,
 * the stage hooks mark when its body's onion began and returned. `timing()` gives the
 * `CallTiming` written on the call's `tool/result`: body times only when the body ran, and
 * every mark taken from one clock, so start <= body start <= body end <= final.
 */
import type { CallTiming } from '@rein/types'

/** The marks of one call. */
export class CallClock {
  private startedAt = 0
  private bodyStartedAt: number | undefined
  private bodyEndedAt: number | undefined

  /** The call starts (before its `tool/call` is logged); returns the time, the entry's `at`. */
  start(): number {
    return this.startedAt = Date.now()
  }

  /** The body's onion began (the first time, should a layer outside call it twice). */
  bodyStart(): void {
    this.bodyStartedAt ??= Date.now()
  }

  /** The body's onion returned. */
  bodyEnd(): void {
    this.bodyEndedAt = Date.now()
  }

  /** The result is final now: the whole timing (frozen: the event and the entry share it). */
  final(): CallTiming {
    const { startedAt, bodyStartedAt, bodyEndedAt } = this
    const finalAt = Date.now()
    // One literal per case (a body ends only after it started), keeping the keys in time order.
    if (bodyStartedAt === undefined) return Object.freeze({ startedAt, finalAt })
    if (bodyEndedAt === undefined) return Object.freeze({ startedAt, bodyStartedAt, finalAt })
    return Object.freeze({ startedAt, bodyStartedAt, bodyEndedAt, finalAt })
  }
}
