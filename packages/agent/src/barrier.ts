/**
 * The barrier of a batch: the first call that later calls may not start past. Blockers are
 * the exclusive calls and the calls not classified yet; a blocker is resolved once it is
 * final, or once it turns out parallel. The barrier only moves forward, and each call is
 * uncovered exactly once, so tracking it costs O(n) for the whole batch.
 */
export class Barrier {
  private readonly blocking: Uint8Array
  private readonly blockers: number[] = []
  private next = 0
  private scanned = 0

  /** `isBlocker(i)`: call `i` starts out as a blocker. */
  constructor(size: number, isBlocker: (index: number) => boolean) {
    this.blocking = new Uint8Array(size)
    for (let i = 0; i < size; i++) {
      if (!isBlocker(i)) continue
      this.blocking[i] = 1
      this.blockers.push(i)
    }
  }

  /** Calls before this index may start as far as barriers go (parallel ones; exclusive ones wait for the frontier). */
  get position(): number {
    return this.blockers[this.next] ?? this.blocking.length
  }

  /** Whether call `index` still holds later calls back. */
  isBlocking(index: number): boolean {
    return this.blocking[index] === 1
  }

  /** Call `index` no longer holds later calls back; `uncover` is offered every call the barrier passes. */
  resolve(index: number, uncover: (index: number) => void): void {
    this.blocking[index] = 0
    this.advance(uncover)
  }

  /** Moves past resolved blockers and offers each newly uncovered call once (also the first time). */
  advance(uncover: (index: number) => void): void {
    while (this.next < this.blockers.length && !this.blocking[this.blockers[this.next]]) this.next++
    const to = this.position
    while (this.scanned < to) uncover(this.scanned++)
  }
}
