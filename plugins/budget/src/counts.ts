/**
 * What the budget keeps per session, as one JSON value in the session's plugin state (so a
 * resume in another process continues it and another session starts from zero). Reading is
 * defensive: a value of another shape (an older or damaged session) reads as fields at zero,
 * never as a crash. Writing makes a fresh value: a state value is frozen once set. Tool names
 * are keys of a null-prototype object, so any name (`__proto__`, `toString`) counts as itself.
 */
import { createHash } from 'node:crypto'
import type { Json, SessionState } from '@rein/kernel'

/** The plugin's name in the session's state, and its one key. */
export const STATE_PLUGIN = 'budget'
export const STATE_KEY = 'counts'

/**
 * How many idempotency keys `counted` keeps for calls without a turn (a direct `execute`,
 * `rein mcp serve`, the AI SDK's tools): the most recent ones. Such a call can only come again
 * while it is among the latest calls, and the counts are rewritten on every call, so they must
 * stay small however many calls a session makes.
 */
export const COUNTED_WITHOUT_TURN = 64

/**
 * How many keys `counted` keeps within one turn: the most recent ones. The counts are rewritten
 * on every call, so a turn of thousands of calls (a model may answer with 4,096) must not write
 * its whole key list with each (it wrote hundreds of megabytes). A call run again after more
 * than this many later calls of its turn (a parked call approved late) counts again: the budget
 * errs towards refusing.
 */
export const COUNTED_PER_TURN = 256

/** Characters kept of each idempotency key (64 bits of its SHA-256): no two calls of a session share them. */
const KEY_CHARS = 16

/** One session's counts. */
export interface Counts {
  /** Calls that reached `tools/execute`, refused ones included. */
  calls: number
  /** The same, by tool name: a null-prototype object, so only a tool's own count is ever read. */
  perTool: Record<string, number>
  /** Milliseconds spent inside `tools/execute` by the calls that ran. */
  toolMs: number
  /** The cost of the calls that ran. */
  cost: number
  /** The latest calls (at most `window`), oldest first: `[tool, fingerprint of its arguments]`. */
  recent: [string, string][]
  /**
   * The turn of `counted`, and the idempotency keys (their first `KEY_CHARS` characters) of the
   * calls already counted (a re-run counts once): the latest `COUNTED_PER_TURN` of that turn, or
   * without a turn the `COUNTED_WITHOUT_TURN` latest.
   */
  turn: number | null
  counted: string[]
}

/** The counts of the session, or zero counts. */
export function readCounts(state: SessionState): Counts {
  const value = state.get(STATE_PLUGIN, STATE_KEY)
  const record = isRecord(value) ? value : {}
  const turn = typeof record.turn === 'number' ? record.turn : null
  return {
    calls: count(record.calls),
    perTool: perToolOf(record.perTool),
    toolMs: count(record.toolMs),
    cost: count(record.cost),
    recent: Array.isArray(record.recent)
      ? record.recent.filter((r): r is [string, string] => Array.isArray(r) && typeof r[0] === 'string' && typeof r[1] === 'string')
      : [],
    turn,
    counted: Array.isArray(record.counted) ? bounded(record.counted.flatMap((k) => typeof k === 'string' ? [k.slice(0, KEY_CHARS)] : []), turn) : [],
  }
}

/**
 * Counts a call under `key` in `turn`: starts the keys afresh for a new turn, adds the call once
 * (one more call, of its tool). False, changing nothing, when the key is counted already.
 */
export function countCall(counts: Counts, tool: string, fullKey: string, turn: number | null): boolean {
  const key = fullKey.slice(0, KEY_CHARS)
  if (counts.turn !== turn) {
    counts.turn = turn
    counts.counted = []
  } else if (counts.counted.includes(key)) {
    return false
  }
  counts.counted.push(key)
  counts.counted = bounded(counts.counted, turn)
  counts.calls++
  counts.perTool[tool] = (counts.perTool[tool] ?? 0) + 1
  return true
}

/** The keys worth keeping: the latest `COUNTED_PER_TURN` of a turn, else the latest `COUNTED_WITHOUT_TURN`. */
function bounded(keys: string[], turn: number | null): string[] {
  const most = turn === null ? COUNTED_WITHOUT_TURN : COUNTED_PER_TURN
  return keys.length > most ? keys.slice(-most) : keys
}

/** The stored counts by tool, as a null-prototype object of the stored object's own keys. */
function perToolOf(value: unknown): Record<string, number> {
  const perTool = Object.create(null) as Record<string, number>
  if (isRecord(value)) for (const [tool, n] of Object.entries(value)) perTool[tool] = count(n)
  return perTool
}

/** Stores `counts` as the session's latest value. */
export function writeCounts(state: SessionState, counts: Counts): void {
  state.set(STATE_PLUGIN, STATE_KEY, counts as unknown as Json)
}

/**
 * A short fingerprint of arguments in canonical form (object keys sorted at every depth), so
 * that `{a:1,b:2}` and `{b:2,a:1}` are the same call. 16 base64url characters: 96 bits.
 */
export function fingerprint(args: unknown): string {
  return createHash('sha256').update(canonical(args)).digest('base64url').slice(0, 16)
}

/** JSON with object keys sorted, so equal values give equal text. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (isRecord(value)) {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
