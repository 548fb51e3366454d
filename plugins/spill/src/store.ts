/**
 * The spill store contract: where whole outputs go when they are too large to show inline.
 * Two methods are required (`save`, `read`), two are optional (`delete`, `close`), so a remote
 * store (S3, a database, an HTTP service) is a small object. Every implementation must pass
 * `testSpillStore` from `@rein/testing`.
 */
import { SPILL_EXPIRED, SPILL_NOT_FOUND } from './codes.js'

/** What the spill plugin tells a store about the output it saves. */
export interface SpillMeta {
  /** The tool whose output this is. */
  tool: string
  /** The id of the call that produced it. */
  callId: string
}

/** What a store returns for a saved output. */
export interface SavedSpill {
  /** An opaque string that `read` accepts. It never names a path a reader could misuse. */
  locator: string
  /** The UTF-8 byte length of the saved text. */
  bytes: number
  /** One sentence telling the model how to read the output back (shown in the notice). */
  retrievalHint: string
}

/** Part of a saved output, as `readRange` returns it. */
export interface ByteRange {
  /** The bytes from `start` (clipped to the output) on. */
  bytes: Uint8Array
  /** The whole output's length in bytes. */
  totalBytes: number
}

/** A place to keep whole outputs. Provided to other plugins as `ctx.spillStore`. */
export interface SpillStore {
  /** Saves `text` whole and returns its locator. Rejects when it cannot (the plugin keeps the result inline). */
  save(text: string, meta: SpillMeta): Promise<SavedSpill>
  /** The exact text saved under `locator`. Rejects with a `SpillNotFoundError` for a locator it does not hold. */
  read(locator: string): Promise<string>
  /**
   * Optional: the bytes [start, end) of the UTF-8 text saved under `locator` (clipped to it)
   * and its length in bytes. When a store has it, `read_spilled` reads only the page asked
   * for, not the whole output. Rejects like `read`.
   */
  readRange?(locator: string, start: number, end: number): Promise<ByteRange>
  /** Optional: forgets one output. Reading it afterwards rejects with `SpillNotFoundError`. */
  delete?(locator: string): Promise<void>
  /** Optional: releases what the store holds when the plugin that made it is disposed. */
  close?(): Promise<void>
}

/** Thrown by `read` for a locator the store does not hold. Its `code` is `SPILL_NOT_FOUND`. */
export class SpillNotFoundError extends Error {
  readonly code = SPILL_NOT_FOUND
  constructor(locator: string) {
    super(`no spilled output has the locator ${JSON.stringify(locator)}; use the locator exactly as the notice gives it`)
    this.name = 'SpillNotFoundError'
  }
}

/**
 * Thrown by a built-in store's `read` for an output it removed to stay within its size bound
 * (`maxStoreBytes`). Its `code` is `SPILL_EXPIRED`; the message tells the model what to do.
 */
export class SpillExpiredError extends Error {
  readonly code = SPILL_EXPIRED
  constructor(locator: string, maxBytes: number) {
    super(`the spilled output ${JSON.stringify(locator)} has expired: it was removed to keep the spill store within `
      + `maxStoreBytes (${maxBytes} bytes), oldest outputs first, and cannot be read any more; `
      + 'run the tool that produced it again to get the output (and a new locator)')
    this.name = 'SpillExpiredError'
  }
}

/** The name of the read-back tool the plugin registers. Its own results are never spilled. */
export const READ_SPILLED = 'read_spilled'

/** The hint the built-in stores give: read the output back with the `read_spilled` tool. */
export function readSpilledHint(locator: string): string {
  return `call ${READ_SPILLED}({ locator: ${JSON.stringify(locator)}, offset, limit }) to read any byte range of it`
}

declare module 'cordis' {
  interface Context {
    spillStore: SpillStore
  }
}
