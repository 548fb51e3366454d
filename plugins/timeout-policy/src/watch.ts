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

/**
 * What waits for a watch to give up (`CallWatch.follow`): told once, with the cause, unless it
 * was unfollowed first. It is its own link in the watch's list, so following costs no
 * allocation (the policy's per-call object is one).
 */
export interface Follower {
  gaveUp(cause: Cause): void
  /** The watch's list (its own business). */
  before?: Follower
  after?: Follower
}

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
  /** `whenAbandoned` without a callback or canceller of its own: `follower` is the list's link. */
  follow(follower: Follower): void
  /** Cancels `follow`; nothing if `follower` was already told. */
  unfollow(follower: Follower): void
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
  /** The followers waiting, newest first (a doubly linked list through them). */
  private waiting: Follower | undefined
  private abandonedPromise: Promise<Cause> | undefined
  private readonly controller = new AbortController()
  private deadline: ReturnType<typeof setTimeout> | undefined
  private grace: ReturnType<typeof setTimeout> | undefined
  /** Left (`leave()`) and not watching again: a heartbeat then starts no timer. */
  private left = false
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
    const follower: Follower = { gaveUp: callback }
    this.follow(follower)
    return () => { this.unfollow(follower) }
  }

  follow(follower: Follower): void {
    const cause = this.gaveUp
    if (cause !== undefined) {
      void Promise.resolve(cause).then((cause) => follower.gaveUp(cause))
      return
    }
    const first = this.waiting
    follower.before = undefined
    follower.after = first
    if (first) first.before = follower
    this.waiting = follower
  }

  unfollow(follower: Follower): void {
    const { before, after } = follower
    if (before) before.after = after
    else if (this.waiting === follower) this.waiting = after
    else return // not in the list (told already, or never followed)
    if (after) after.before = before
    follower.before = follower.after = undefined
  }

  /** What aborted the signal first, if anything has. */
  get cause(): Cause | undefined {
    return this.first
  }

  /**
   * (Re)starts the deadline from now: the heartbeat. No effect without a deadline, once aborted,
   * or once left (a tool that kept `exec.progress` may report after its call returned).
   */
  arm(): void {
    if (this.ms === undefined || this.first || this.left) return
    clearTimeout(this.deadline)
    this.deadline = setTimeout(() => this.fire('deadline'), this.ms)
  }

  /**
   * Listens to the caller and starts the deadline from now: at the start, and again for a
   * watch that `leave()` cleared before anything fired, while its caller has not aborted.
   */
  protected watch(): void {
    this.left = false
    this.caller.addEventListener('abort', this.onCallerAbort, { once: true })
    this.arm()
  }

  /** Clears the timers and the caller listener. Call it once the call is over. */
  leave(): void {
    this.left = true
    clearTimeout(this.deadline)
    clearTimeout(this.grace)
    this.caller.removeEventListener('abort', this.onCallerAbort)
  }

  private giveUp(cause: Cause): void {
    this.gaveUp = cause
    let follower = this.waiting
    this.waiting = undefined
    // Unlinked before each is told, so one that unfollows another (or itself) changes nothing here.
    const told: Follower[] = []
    while (follower) {
      const next: Follower | undefined = follower.after
      follower.before = follower.after = undefined
      told.push(follower)
      follower = next
    }
    // In the order they followed, as the Set of callbacks did.
    for (let i = told.length - 1; i >= 0; i--) told[i]!.gaveUp(cause)
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
