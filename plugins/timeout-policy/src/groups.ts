/**
 * Deadlines shared by calls that start together. A parallel batch starts its calls in one
 * synchronous loop, so they reach this policy in the same millisecond, on the same caller
 * signal, with the same deadline: those calls share one watch — one AbortController, one
 * timer and one listener on the caller's signal — instead of one each. Sharing changes no
 * deadline: every member started in the group's millisecond, so the group's deadline is
 * exactly each member's. A group is closed, its timers and listener cleared, as its last
 * member leaves once its millisecond is over, else in the microtask after that, unless a call
 * of the same millisecond joined it meanwhile (the next call of a batch starts as the previous
 * one ends). A closed group is opened again for a
 * call of its millisecond (its timer started anew, due at the same moment): a new
 * `AbortController` costs microseconds, and a batch whose calls wait for pool slots would
 * otherwise make several groups per millisecond. A group whose signal or caller aborted takes
 * no new members. The shared signal takes any number of listeners, one per member's body,
 * without Node's leak warning. State is per instance (one per plugin), never global.
 */
import { setMaxListeners } from 'node:events'
import { CallWatch, type Watch } from './watch.js'

/** Queues microtasks (see `Group.leave`). */
const RESOLVED = Promise.resolve()

/** The watches of one plugin instance, grouped by caller signal, deadline and start time. */
export class DeadlineGroups {
  /** The newest group of each caller signal; older ones live on through their members. */
  private readonly open = new Map<AbortSignal, Group>()
  /**
   * The group made last, held (closed, its timers cleared) until the next replaces it: as in
   * the kernel's `AbortWatch`, measured on the peer bench, code V8 optimized for the call path
   * otherwise goes at each full GC that finds no group alive.
   */
  private last: Group | undefined

  constructor(private readonly graceMs: number, private readonly now: () => number = () => Date.now()) {}

  /** A watch for one call that starts now; `leave()` it once the call is over. */
  join(caller: AbortSignal, ms: number | undefined): Watch {
    const at = this.now()
    // The open group of this caller, else the last one made, closed since (same caller?).
    let group = this.open.get(caller) ?? this.last
    if (group?.takes(caller, ms, at)) {
      if (group.closed) {
        group.reopen()
        this.open.set(caller, group)
      }
    } else {
      group = new Group(caller, ms, at, this.graceMs, this.now, (empty) => { if (this.open.get(caller) === empty) this.open.delete(caller) })
      this.open.set(caller, group)
      this.last = group
    }
    group.join()
    return group
  }
}

/** One shared watch: a `CallWatch` that members join and leave, closed after the last one. */
class Group extends CallWatch {
  members = 0
  private joined = 0
  closed = false

  constructor(
    caller: AbortSignal, ms: number | undefined, readonly at: number, graceMs: number,
    private readonly now: () => number, private readonly onEmpty: (group: Group) => void,
  ) {
    super(caller, ms, graceMs)
  }

  /**
   * Whether a call of `caller` with deadline `ms` starting at `at` may join: same caller,
   * deadline and millisecond (so the same deadline moment), and nothing has fired, nor could
   * have while the group was closed (its caller has not aborted).
   */
  takes(caller: AbortSignal, ms: number | undefined, at: number): boolean {
    return this.caller === caller && this.at === at && this.ms === ms && this.cause === undefined && !caller.aborted
  }

  /** Opens a closed group again: listens to the caller and starts the timer anew, in the group's millisecond. */
  reopen(): void {
    this.closed = false
    this.watch()
  }

  /** One more member. From the second ever on, the signal is shared by every member's body. */
  join(): void {
    this.members++
    // As many listeners as calls in flight is expected here, not the leak Node's warning (at
    // 11) is meant to catch. Raised only once the signal is shared: Node's setMaxListeners
    // costs about a third of what the rest of a watch does (docs/performance.md, "shared deadlines").
    if (++this.joined === 2) setMaxListeners(0, this.signal)
  }

  /**
   * One member's call is over. Once the last one is out the group closes: at once when its
   * millisecond is over (no call can join it any more), else in the next microtask.
   */
  override leave(): void {
    if (--this.members > 0) return
    if (this.now() !== this.at) this.closeIfEmpty()
    // A resolved promise's `then`, not `queueMicrotask` (Node makes an AsyncResource per call).
    else void RESOLVED.then(this.closeIfEmpty)
  }

  /** Clears the timers and the listener, unless a member joined since the last one left. */
  private readonly closeIfEmpty = () => {
    if (this.members > 0 || this.closed) return
    this.closed = true
    super.leave()
    this.onEmpty(this)
  }
}
