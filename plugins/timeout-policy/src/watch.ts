/**
 * One call's watch. Its `signal` aborts when the deadline fires or when the caller's signal
 * aborts, whichever comes first; the first cause is kept and never changes. `graceMs` after
 * that cause (at once when it is 0) the watch gives up: `abandoned` settles and `whenAbandoned`
 * callbacks run, telling the policy to stop waiting.
 * `dispose()` clears every timer and listener, so a settled call leaves no handle behind.
 */
import { Messages } from '@rein/kernel'

/** Why the watch's signal aborted. */
export type Cause = 'deadline' | 'caller'

/** What the policy needs of a watch, shared (`DeadlineGroups`) or one call's own (`CallWatch`). */
export interface Watch {
  /** The signal for the layers inside: aborts on the deadline or with the caller. */
  readonly signal: AbortSignal
  /** Resolves with the cause `graceMs` after it happened; never resolves when nothing fired. */
  readonly abandoned: Promise<Cause>
  /**
   * Calls `callback` with the cause when the watch gives up (in a microtask if it has already);
   * returns what cancels that. What the policy uses per call: a callback, not a promise reaction.
   */
  whenAbandoned(callback: (cause: Cause) => void): () => void
  /** What aborted the signal first, if anything has. */
  readonly cause: Cause | undefined
  /** The call is over: clears what it alone was holding. Call it once. */
  leave(): void
}

/**
 * One watch: a call's own (when progress restarts the deadline, `resetOnProgress`), or, as the
 * base of `DeadlineGroups`' groups, shared by the calls that start together.
 */
export class CallWatch implements Watch {
  /** The signal for the layers inside: aborts on the deadline or with the caller. */
  readonly signal: AbortSignal
  private first: Cause | undefined
  /** The cause once the watch gave up. */
  private gaveUp: Cause | undefined
  private waiting: Set<(cause: Cause) => void> | undefined
  private abandonedPromise: Promise<Cause> | undefined
  private readonly controller = new AbortController()
  private deadline: ReturnType<typeof setTimeout> | undefined
  private grace: ReturnType<typeof setTimeout> | undefined
  private readonly onCallerAbort = () => this.fire('caller')

  /** Starts watching. `ms` undefined: no deadline, only the caller's abort is watched. */
  constructor(protected readonly caller: AbortSignal, readonly ms: number | undefined, private readonly graceMs: number) {
    this.signal = this.controller.signal
    if (caller.aborted) this.fire('caller')
    else this.watch()
  }

  /** Resolves with the cause `graceMs` after it happened; never resolves when nothing fired. Made on first read. */
  get abandoned(): Promise<Cause> {
    return this.abandonedPromise ??= new Promise((resolve) => { this.whenAbandoned(resolve) })
  }

  whenAbandoned(callback: (cause: Cause) => void): () => void {
    const cause = this.gaveUp
    if (cause !== undefined) {
      void Promise.resolve(cause).then(callback)
      return noop
    }
    const waiting = this.waiting ??= new Set()
    waiting.add(callback)
    return () => { waiting.delete(callback) }
  }

  /** What aborted the signal first, if anything has. */
  get cause(): Cause | undefined {
    return this.first
  }

  /** (Re)starts the deadline from now: the heartbeat. No effect without a deadline or once aborted. */
  arm(): void {
    if (this.ms === undefined || this.first) return
    clearTimeout(this.deadline)
    this.deadline = setTimeout(() => this.fire('deadline'), this.ms)
  }

  /**
   * Listens to the caller and starts the deadline from now: at the start, and again for a
   * watch that `leave()` cleared before anything fired, while its caller has not aborted.
   */
  protected watch(): void {
    this.caller.addEventListener('abort', this.onCallerAbort, { once: true })
    this.arm()
  }

  /** Clears the timers and the caller listener. Call it once the call is over. */
  leave(): void {
    clearTimeout(this.deadline)
    clearTimeout(this.grace)
    this.caller.removeEventListener('abort', this.onCallerAbort)
  }

  private giveUp(cause: Cause): void {
    this.gaveUp = cause
    const waiting = this.waiting
    this.waiting = undefined
    if (waiting) for (const callback of waiting) callback(cause)
  }

  private fire(cause: Cause): void {
    if (this.first) return
    this.first = cause
    clearTimeout(this.deadline)
    this.caller.removeEventListener('abort', this.onCallerAbort)
    // Node runs a 0ms timer after 1ms at the earliest: a zero grace gives up at once instead.
    if (this.graceMs === 0) this.giveUp(cause)
    else this.grace = setTimeout(() => this.giveUp(cause), this.graceMs)
    const reason = cause === 'deadline'
      ? new DOMException(Messages.timedOut(this.ms ?? 0), 'TimeoutError')
      : this.caller.reason
    this.controller.abort(reason)
  }
}

const noop = () => {}
