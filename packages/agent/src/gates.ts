/**
 * The two stage gates of a batch. `PreGate` lets one call at a time through the stage before
 * the body (pre-execute, approval, guards), in the order the calls started. `PostGate` lets one
 * call at a time through post-execute: a call others depend on as soon as it settles, any
 * other call only once every earlier call of the batch is final. Both are plain queues over
 * call indices: no timers, no polling, O(1) per call.
 */

/** First come, first served: a call holds the gate from its turn until it is released. */
export class PreGate {
  private readonly queue: number[] = []
  private head = 0
  // Indexed by call: fixed-size arrays rather than a Set and a Map, so that a call costs no hashing.
  private readonly released: Uint8Array
  private readonly waiters: ((() => void) | undefined)[]

  /** `size`: the number of calls in the batch. */
  constructor(size: number) {
    this.released = new Uint8Array(size)
    this.waiters = new Array(size)
  }

  /** Joins the queue; call in start order. */
  enqueue(index: number): void {
    this.queue.push(index)
  }

  /** Undefined when `index` is at the head of the queue now, else a promise that resolves when it is. */
  turn(index: number): Promise<void> | undefined {
    if (this.queue[this.head] === index) return undefined
    return new Promise((resolve) => { this.waiters[index] = resolve })
  }

  /** Leaves the queue (idempotent), whether or not it had its turn; the next call in line gets its turn. */
  release(index: number): void {
    this.waiters[index] = undefined
    this.released[index] = 1
    while (this.head < this.queue.length && this.released[this.queue[this.head]]) this.head++
    const next = this.queue[this.head]
    const wake = next === undefined ? undefined : this.waiters[next]
    if (wake) {
      this.waiters[next] = undefined
      wake()
    }
  }
}

/** Post-execute is a mutex; a call that is not depended on also waits for every earlier call. */
export class PostGate {
  private readonly done: Uint8Array
  private holder = -1
  private front = 0
  private readonly inOrder: ((() => void) | undefined)[]
  private readonly early: { index: number, resolve: () => void }[] = []

  constructor(size: number) {
    this.done = new Uint8Array(size)
    this.inOrder = new Array(size)
  }

  /** The first call that is not final yet: every call before it is final (or abandoned). */
  get frontier(): number {
    return this.front
  }

  /**
   * Undefined when call `index` may run post-execute now, else a promise that resolves when it
   * may. `early`: others depend on it. (Most calls are let in at once: they cost no promise.)
   */
  enter(index: number, early: boolean): Promise<void> | undefined {
    let admitted = false
    let wake: (() => void) | undefined
    const resolve = () => {
      if (wake) wake()
      else admitted = true
    }
    if (early) this.early.push({ index, resolve })
    else this.inOrder[index] = resolve
    this.dispatch()
    return admitted ? undefined : new Promise((settle) => { wake = settle })
  }

  /** Whether call `index` entered and still waits for its turn. */
  isWaiting(index: number): boolean {
    return this.inOrder[index] !== undefined || this.early.some((waiter) => waiter.index === index)
  }

  /** Call `index` is final (or will never run): frees the mutex if it held it, moves the frontier. */
  finish(index: number): void {
    this.done[index] = 1
    if (this.holder === index) this.holder = -1
    while (this.front < this.done.length && this.done[this.front]) this.front++
    this.dispatch()
  }

  private dispatch(): void {
    if (this.holder !== -1) return
    // The lowest index wins: the early waiter with the lowest index (`at` in `early`), or the
    // frontier call when it waits in order (`at` -1). Few calls wait early at any one time.
    let pick = -1
    let at = -1
    for (let i = 0; i < this.early.length; i++) {
      const index = this.early[i].index
      if (pick === -1 || index < pick) {
        pick = index
        at = i
      }
    }
    if (this.inOrder[this.front] && (pick === -1 || this.front < pick)) {
      pick = this.front
      at = -1
    }
    if (pick === -1) return
    this.holder = pick
    const resolve = at === -1 ? this.inOrder[pick]! : this.early[at].resolve
    if (at === -1) this.inOrder[pick] = undefined
    else this.early.splice(at, 1)
    resolve()
  }
}
