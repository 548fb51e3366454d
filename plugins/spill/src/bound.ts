/**
 * The size bound shared by the built-in stores: at most `maxBytes` of saved outputs are kept,
 * the oldest saved removed first (the newest is always kept, so one output larger than the
 * bound alone is still readable until the next save). Identical texts are not merged: the
 * store contract (`testSpillStore`) gives every save its own locator. Locators removed by
 * the bound are remembered (the most recent `EXPIRED_REMEMBERED` of them), so reading one says
 * it expired instead of that it never existed.
 */
/** The default bound of a built-in store: 256 MiB. */
export const DEFAULT_MAX_STORE_BYTES = 256 * 1024 * 1024

/** How many expired locators are remembered for the "expired" message; older ones read as not found. */
const EXPIRED_REMEMBERED = 10_000

export class StoreBound {
  // A Map iterates in insertion order: the oldest save comes first. Values are byte counts.
  private readonly held = new Map<string, number>()
  private readonly expired = new Set<string>()
  private total = 0

  constructor(readonly maxBytes: number = DEFAULT_MAX_STORE_BYTES) {}

  /** Bytes of the outputs held. */
  get bytes(): number {
    return this.total
  }

  /** Records a new output; returns the locators the bound removes to make room (oldest first). */
  add(locator: string, bytes: number): string[] {
    this.held.set(locator, bytes)
    this.total += bytes
    const removed: string[] = []
    while (this.total > this.maxBytes && this.held.size > 1) {
      const oldest = this.held.keys().next().value!
      this.forget(oldest)
      this.expired.add(oldest)
      if (this.expired.size > EXPIRED_REMEMBERED) this.expired.delete(this.expired.values().next().value!)
      removed.push(oldest)
    }
    return removed
  }

  /** `locator` was deleted on purpose: no longer counted (and not expired). */
  release(locator: string): void {
    this.forget(locator)
  }

  /** True when the bound removed `locator` (recently enough to remember). */
  isExpired(locator: string): boolean {
    return this.expired.has(locator)
  }

  clear(): void {
    this.held.clear()
    this.expired.clear()
    this.total = 0
  }

  private forget(locator: string): void {
    const bytes = this.held.get(locator)
    if (bytes === undefined) return
    this.held.delete(locator)
    this.total -= bytes
  }
}
