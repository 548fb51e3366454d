/**
 * What the budget keeps per session, as one JSON value in the session's plugin state (so a
 * resume in another process continues it and another session starts from zero). Reading is
 * defensive: a value of another shape (an older or damaged session) reads as fields at zero,
 * never as a crash. Writing makes a fresh value: a state value is frozen once set.
 */
import { createHash } from 'node:crypto'
import type { Json, SessionState } from '@rein/kernel'

/** The plugin's name in the session's state, and its one key. */
export const STATE_PLUGIN = 'budget'
export const STATE_KEY = 'counts'

/** One session's counts. */
export interface Counts {
  /** Calls that reached `tools/execute`, refused ones included. */
  calls: number
  /** The same, by tool name. */
  perTool: Record<string, number>
  /** Milliseconds spent inside `tools/execute` by the calls that ran. */
  toolMs: number
  /** The cost of the calls that ran. */
  cost: number
  /** The latest calls (at most `window`), oldest first: `[tool, fingerprint of its arguments]`. */
  recent: [string, string][]
  /** The turn of `counted`, and the idempotency keys of the calls of that turn already counted (a re-run counts once). */
  turn: number | null
  counted: string[]
}

/** The counts of the session, or zero counts. */
export function readCounts(state: SessionState): Counts {
  const value = state.get(STATE_PLUGIN, STATE_KEY)
  const record = isRecord(value) ? value : {}
  return {
    calls: count(record.calls),
    perTool: isRecord(record.perTool) ? Object.fromEntries(Object.entries(record.perTool).map(([tool, n]) => [tool, count(n)])) : {},
    toolMs: count(record.toolMs),
    cost: count(record.cost),
    recent: Array.isArray(record.recent)
      ? record.recent.filter((r): r is [string, string] => Array.isArray(r) && typeof r[0] === 'string' && typeof r[1] === 'string')
      : [],
    turn: typeof record.turn === 'number' ? record.turn : null,
    counted: Array.isArray(record.counted) ? record.counted.filter((k): k is string => typeof k === 'string') : [],
  }
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
