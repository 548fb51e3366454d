/**
 * The document `rein run --json` prints: how the run ended, the answer, every call with its
 * outcome and what the plugins did to it, and the run's totals. Built from the run's outcome
 * and its stats only, after the run; the shape is documented in the CLI README.
 */
import type { RunOutcome } from '@rein/agent'
import { requestJson, waitingCalls } from '../approval/pending.js'
import type { RunStats } from './stats.js'

/** The `--json` document of a finished run. */
export function runJson(outcome: RunOutcome, stats: RunStats, session: string | undefined) {
  const last = outcome.messages.at(-1)
  const { outcomes, ...totals } = stats.summary()
  const waiting = waitingCalls(outcome)
  return {
    ok: outcome.kind === 'completed',
    outcome: outcome.kind,
    answer: outcome.kind === 'completed' && last?.role === 'assistant' ? last.content : null,
    ...(outcome.kind === 'error' ? { problems: [{ message: outcome.error?.message ?? 'unknown error' }] } : {}),
    ...(waiting ? { approvals: waiting.map(requestJson) } : {}),
    session: session ?? null,
    calls: stats.records().map((r) => ({
      turn: r.turn,
      id: r.id,
      name: r.name,
      outcome: r.outcome ?? 'unfinished',
      durationMs: r.durationMs === undefined ? null : Math.round(r.durationMs),
      ...(r.facts.attempts !== undefined ? { attempts: r.facts.attempts } : {}),
      ...(r.facts.cacheHit ? { cacheHit: true } : {}),
      ...(r.facts.spilledBytes !== undefined ? { spilledBytes: r.facts.spilledBytes } : {}),
      ...(r.error !== undefined ? { error: r.error } : {}),
    })),
    summary: { ...totals, outcomes: Object.fromEntries(outcomes), wallMs: Math.round(totals.wallMs), serialMs: Math.round(totals.serialMs) },
  }
}
