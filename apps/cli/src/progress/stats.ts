/**
 * What a run's calls added up to, for the live turn lines and the final summary: calls per
 * outcome, retries, cache hits, spills, and the wall time of the tool batches against the
 * sum of the calls' own durations (what running them one after another would have taken).
 * It only records what it is told; times are on one monotonic clock in milliseconds.
 */
import type { ToolExecutionResult } from '@rein/kernel'
import { concurrentGroups, span } from '../intervals.js'
import { factsOf, outcomeOf, type ResultFacts } from './format.js'

/** One call as the stats know it. `end` and `outcome` are set once it is final. */
export interface CallRecord {
  turn: number
  index: number
  id: string
  name: string
  start: number
  end?: number
  durationMs?: number
  outcome?: string
  /** The failure's message, for a call that failed. */
  error?: string
  facts: ResultFacts
}

/** A finished batch in numbers. */
export interface TurnTiming {
  /** Ids of the calls that ran together, group after group. */
  groups: string[][]
  /** From the batch's first start to its last end. */
  wallMs: number
  /** The sum of its calls' durations. */
  serialMs: number
}

/** The whole run in numbers. */
export interface Summary {
  calls: number
  /** `[outcome, count]`, `ok` first, then by count. */
  outcomes: [string, number][]
  retried: number
  cacheHits: number
  spilled: number
  spilledBytes: number
  wallMs: number
  serialMs: number
  /** The most calls that ran at the same time in any batch (1 when none ran side by side). */
  largestGroup: number
}

const key = (turn: number, index: number) => `${turn}:${index}`

/** Accumulates call starts and ends. */
export class RunStats {
  private readonly calls = new Map<string, CallRecord>()

  /** A call started at `at`. */
  started(turn: number, index: number, id: string, name: string, at: number): void {
    this.calls.set(key(turn, index), { turn, index, id, name, start: at, facts: {} })
  }

  /** A call is final at `at`; `durationMs` is how long its body ran (its whole time if it never ran). */
  ended(turn: number, index: number, result: ToolExecutionResult, durationMs: number, at: number): void {
    const record = this.calls.get(key(turn, index))
    if (!record) return
    record.end = at
    record.durationMs = durationMs
    record.outcome = outcomeOf(result)
    record.facts = factsOf(result.meta)
    if (result.isError) record.error = result.error.message
  }

  /** Every call that started, batch by batch, in model order. */
  records(): CallRecord[] {
    return [...this.calls.values()].sort((a, b) => a.turn - b.turn || a.index - b.index)
  }

  /** The calls of `turn` that started, in model order. */
  turn(turn: number): CallRecord[] {
    return [...this.calls.values()].filter((r) => r.turn === turn).sort((a, b) => a.index - b.index)
  }

  /** Groups and times of a turn's finished calls. */
  timing(turn: number): TurnTiming {
    const done = this.turn(turn).filter((r) => r.end !== undefined).map((r) => ({ id: r.id, start: r.start, end: r.end! }))
    return {
      groups: concurrentGroups(done).map((group) => group.map((r) => r.id)),
      wallMs: span(done),
      serialMs: this.turn(turn).reduce((sum, r) => sum + (r.durationMs ?? 0), 0),
    }
  }

  summary(): Summary {
    const records = [...this.calls.values()]
    const counts = new Map<string, number>()
    for (const r of records) if (r.outcome) counts.set(r.outcome, (counts.get(r.outcome) ?? 0) + 1)
    const outcomes = [...counts].sort((a, b) => Number(b[0] === 'ok') - Number(a[0] === 'ok') || b[1] - a[1] || a[0].localeCompare(b[0]))
    const turns = [...new Set(records.map((r) => r.turn))]
    const timings = turns.map((turn) => this.timing(turn))
    return {
      calls: records.length,
      outcomes,
      retried: records.filter((r) => (r.facts.attempts ?? 1) > 1).length,
      cacheHits: records.filter((r) => r.facts.cacheHit).length,
      spilled: records.filter((r) => r.facts.spilledBytes !== undefined).length,
      spilledBytes: records.reduce((sum, r) => sum + (r.facts.spilledBytes ?? 0), 0),
      wallMs: timings.reduce((sum, t) => sum + t.wallMs, 0),
      serialMs: records.reduce((sum, r) => sum + (r.durationMs ?? 0), 0),
      largestGroup: Math.max(0, ...timings.flatMap((t) => t.groups.map((g) => g.length))),
    }
  }
}
