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

  private async pump(): Promise<void> {
    try {
      while (!this.stopped && this.next < this.items.length && this.items[this.next] !== undefined) {
        const index = this.next
        const item = this.items[index] as T
        this.items[index] = undefined
        await this.commit(index, item)
        this.next = index + 1
      }
    } catch (error) {
      this.stopped = true
      this.onError(error)
    } finally {
      this.pumping = undefined
    }
  }
}
