/**
 * The in-memory spill store: outputs live in a Map owned by one store object, for as long as
 * that object lives (the plugin clears it when disposed). Nothing is shared between stores.
 * Meant for tests and short runs; a long session with many large outputs should use `local`.
 */
import { randomBytes } from 'node:crypto'
import { utf8Length } from '@rein/retention'
import { readSpilledHint, SpillNotFoundError, type SavedSpill, type SpillMeta, type SpillStore } from './store.js'

/** A spill store that keeps outputs in memory. */
export class MemorySpillStore implements SpillStore {
  private readonly entries = new Map<string, string>()

  /** How many outputs it holds. */
  get size(): number {
    return this.entries.size
  }

  async save(text: string, _meta: SpillMeta): Promise<SavedSpill> {
    let locator: string
    do locator = `spill_mem_${randomBytes(12).toString('hex')}`
    while (this.entries.has(locator))
    this.entries.set(locator, text)
    return { locator, bytes: utf8Length(text), retrievalHint: readSpilledHint(locator) }
  }

  async read(locator: string): Promise<string> {
    const text = this.entries.get(locator)
    if (text === undefined) throw new SpillNotFoundError(locator)
    return text
  }

  async delete(locator: string): Promise<void> {
    this.entries.delete(locator)
  }

  async close(): Promise<void> {
    this.entries.clear()
  }
}

/** Makes an in-memory spill store. */
export function memoryStore(): MemorySpillStore {
  return new MemorySpillStore()
}
