/**
 * The commit cursor: results arrive in any order, and are committed strictly in model order,
 * one at a time, each only after every earlier one. A gap (a call that will never have a
 * result, after a scheduler failure) stops it there: nothing after a gap is committed, and
 * nothing is ever made up to fill one.
 */

export class CommitCursor<T> {
  private readonly items: (T | undefined)[]
  private next = 0
  private stopped = false
  private pumping: Promise<void> | undefined

  /** `commit` appends one item durably; a rejection is passed to `onError` and stops the cursor. */
  constructor(size: number, private readonly commit: (index: number, item: T) => Promise<unknown>,
    private readonly onError: (error: unknown) => void) {
    this.items = new Array(size)
  }

  /** How many items are committed: always a prefix, in model order. */
  get committed(): number {
    return this.next
  }

  /** Item `index` is final; commits it as soon as everything before it is committed. */
  offer(index: number, item: T): void {
    this.items[index] = item
    if (index === this.next && !this.pumping && !this.stopped) this.pumping = this.pump()
  }

  /** Commits nothing more after the commit in progress. */
  stop(): void {
    this.stopped = true
  }

  /** Resolves when no commit is in progress and the next item is not there (or the cursor stopped). */
  async drained(): Promise<void> {
    while (this.pumping) await this.pumping
  }

  /**
   * Commits the next item, then the one after it, while they are there. A chain of `then`s
   * rather than an async loop (whose frame stays on the heap at each await): this runs once
   * per result. Resolves when nothing more can be committed now.
   */
  private pump(): Promise<void> {
    if (this.stopped || this.next >= this.items.length || this.items[this.next] === undefined) {
      this.pumping = undefined
      return Promise.resolve()
    }
    const index = this.next
    const item = this.items[index] as T
    this.items[index] = undefined
    let committed: Promise<unknown>
    try {
      committed = this.commit(index, item)
    } catch (error) {
      // Fail a turn later: when `offer` started this pump it stores the promise returned here
      // as `pumping`, and only a failure after that store can clear it for `drained()`.
      return Promise.resolve().then(() => this.failed(error))
    }
    return committed.then(() => {
      this.next = index + 1
      return this.pump()
    }, (error: unknown) => this.failed(error))
  }

  /** A commit failed: nothing more is committed, and the owner is told. */
  private failed(error: unknown): void {
    this.stopped = true
    this.pumping = undefined
    this.onError(error)
  }
}
