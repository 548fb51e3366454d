/**
 * A bounded map with a time to live: at most `maxEntries` values, the least recently used
 * evicted first; a value older than `ttlMs` (by the injected clock) is never returned and is
 * dropped when met. Nothing runs in the background: no timers, all work happens on access.
 */

interface Entry<V> {
  value: V
  storedAt: number
}

export class TtlLru<V> {
  // A Map iterates in insertion order: re-inserting on every hit keeps the oldest use first.
  private readonly entries = new Map<string, Entry<V>>()

  constructor(private readonly maxEntries: number, private readonly ttlMs: number, private readonly now: () => number) {}

  /** The value stored under `key` if it is still fresh; marks it as most recently used. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    this.entries.delete(key)
    if (this.now() - entry.storedAt >= this.ttlMs) return undefined
    this.entries.set(key, entry)
    return entry.value
  }

  /** Stores `value` as the most recently used, evicting the least recently used beyond the bound. */
  set(key: string, value: V): void {
    this.entries.delete(key)
    if (this.maxEntries === 0 || this.ttlMs === 0) return
    this.entries.set(key, { value, storedAt: this.now() })
    while (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value!)
    }
  }

  /** Drops every entry (a write may have made any of them stale). Nothing to do (and nothing made) when empty. */
  clear(): void {
    if (this.entries.size > 0) this.entries.clear()
  }

  /** How many entries are held, fresh or not yet noticed to be stale. */
  get size(): number {
    return this.entries.size
  }
}
