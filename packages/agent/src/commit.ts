/**
 * The commit cursor: results arrive in any order, and are committed strictly in model order:
 * each commit is issued only after every earlier one was issued, and counts as committed only
 * once the store acknowledged it and every earlier one. A gap (a call that will never have a
 * result, after a scheduler failure) stops it there: nothing after a gap is committed, and
 * nothing is ever made up to fill one.
 */

export class CommitCursor<T> {
  private readonly items: (T | undefined)[]
  private readonly acked: boolean[]
  /** The next index to hand to `commit`. */
  private next = 0
  /** How many commits are acknowledged, as a prefix. */
  private acknowledged = 0
  /** Commits issued and not yet settled. */
  private pending = 0
  private stopped = false
  private failedOnce = false
  private settled: Promise<void> | undefined
  private onSettled: (() => void) | undefined

  /**
   * `commit` appends one item durably: a promise that resolves once it is durable, or undefined
   * when it is durable already; a rejection (or a throw) is passed to `onError` and stops the cursor.
   */
  constructor(size: number, private readonly commit: (index: number, item: T) => Promise<unknown> | undefined,
    private readonly onError: (error: unknown) => void) {
    this.items = new Array(size)
    this.acked = new Array(size).fill(false)
  }

  /** How many items are committed (acknowledged with every earlier one): always a prefix, in model order. */
  get committed(): number {
    return this.acknowledged
  }

  /**
   * Item `index` is final; its commit is issued as soon as every earlier one is issued. A commit
   * is issued without waiting for the earlier ones to be acknowledged: a store appends in call
   * order and, once a write fails, refuses every later append, so the results that are ready
   * together share one durable write instead of paying one each.
   */
  offer(index: number, item: T): void {
    this.items[index] = item
    while (!this.stopped && this.next < this.items.length && this.items[this.next] !== undefined) {
      const at = this.next++
      const ready = this.items[at] as T
      this.items[at] = undefined
      let committed: Promise<unknown> | undefined
      try {
        committed = this.commit(at, ready)
      } catch (error) {
        this.failed(error)
        return
      }
      if (committed === undefined) {
        this.acknowledge(at)
        continue
      }
      this.pending++
      committed.then(() => this.settle(at, true), (error: unknown) => {
        this.failed(error)
        this.settle(at, false)
      })
    }
  }

  /** Issues nothing more after the commits already issued. */
  stop(): void {
    this.stopped = true
  }

  /** Whether an issued commit still waits for the store. */
  get waiting(): boolean {
    return this.pending > 0
  }

  /** Resolves when no issued commit is still waiting for the store. */
  drained(): Promise<void> {
    if (this.pending === 0) return Promise.resolve()
    return this.settled ??= new Promise((resolve) => { this.onSettled = resolve })
  }

  private settle(index: number, ok: boolean): void {
    this.pending--
    if (ok) this.acknowledge(index)
    if (this.pending > 0) return
    const resolve = this.onSettled
    this.settled = this.onSettled = undefined
    resolve?.()
  }

  private acknowledge(index: number): void {
    this.acked[index] = true
    while (this.acknowledged < this.acked.length && this.acked[this.acknowledged]) this.acknowledged++
  }

  /** A commit failed: nothing more is issued, and the owner is told (once). */
  private failed(error: unknown): void {
    this.stopped = true
    if (this.failedOnce) return
    this.failedOnce = true
    this.onError(error)
  }
}
