/**
 * The in-memory spill store: outputs live in a Map owned by one store object, for as long as
 * that object lives (the plugin clears it when disposed). Nothing is shared between stores.
 * At most `maxBytes` (default 256 MiB) are kept, the oldest saved removed first. Meant for
 * tests and short runs.
 */
import { randomBytes } from 'node:crypto'
import { utf8Length } from '@rein/retention'
import { StoreBound } from './bound.js'
import { readSpilledHint, SpillExpiredError, SpillNotFoundError, type SavedSpill, type SpillMeta, type SpillStore } from './store.js'

export interface MemoryStoreOptions {
  /** At most this many bytes of outputs are kept, the oldest saved removed first. Default 256 MiB. */
  maxBytes?: number
}

/** A spill store that keeps outputs in memory, within `maxBytes`. */
export class MemorySpillStore implements SpillStore {
  private readonly entries = new Map<string, string>()
  private readonly bound: StoreBound

  constructor(options: MemoryStoreOptions = {}) {
    this.bound = new StoreBound(options.maxBytes)
  }

  /** Bytes of the outputs it holds. */
  get bytes(): number {
    return this.bound.bytes
  }

  /** How many outputs it holds. */
  get size(): number {
    return this.entries.size
  }

  async save(text: string, _meta: SpillMeta): Promise<SavedSpill> {
    const bytes = utf8Length(text)
    let locator: string
    do locator = `spill_mem_${randomBytes(12).toString('hex')}`
    while (this.entries.has(locator))
    this.entries.set(locator, text)
    for (const removed of this.bound.add(locator, bytes)) this.entries.delete(removed)
    return { locator, bytes, retrievalHint: readSpilledHint(locator) }
  }

  async read(locator: string): Promise<string> {
    const text = this.entries.get(locator)
    if (text !== undefined) return text
    if (this.bound.isExpired(locator)) throw new SpillExpiredError(locator, this.bound.maxBytes)
    throw new SpillNotFoundError(locator)
  }

  async delete(locator: string): Promise<void> {
    this.bound.release(locator)
    this.entries.delete(locator)
  }

  async close(): Promise<void> {
    this.entries.clear()
    this.bound.clear()
  }
}

/** Makes an in-memory spill store. */
export function memoryStore(options: MemoryStoreOptions = {}): MemorySpillStore {
  return new MemorySpillStore(options)
}
