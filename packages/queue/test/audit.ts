/**
 * The exactly-once audit of a load test, from what PostgreSQL holds: every session's log and
 * the ledger the fixture tool writes before its body waits. It holds when every session's
 * transcript is valid and has `calls` successful results, each committed call is in the
 * ledger exactly once, no call is in the ledger twice (rein never ran one again), and every
 * ledger row belongs to a call the session logged.
 */
import type pg from 'pg'
import { buildMessages, type SessionEntry } from '@rein/agent'
import { validateTranscript } from '@rein/testing'

export interface Audit {
  sessions: number
  /** Successful results stored. */
  committed: number
  /** Calls an earlier attempt left in flight, stored as TOOL_OUTCOME_UNKNOWN. */
  outcomeUnknown: number
  /** Calls an earlier attempt logged no start for, stored as TOOL_NOT_STARTED. */
  notStarted: number
  /** Bodies that began, by the ledger. */
  ledgerRows: number
  /** One line per violation; empty when the audit holds. */
  problems: string[]
}

/** Audits `sessions`, each expected to end with `calls` successful results. */
export async function audit(admin: pg.Pool, sessions: readonly string[], calls: number): Promise<Audit> {
  const { rows: entryRows } = await admin.query(
    'SELECT session_id, seq, entry FROM rein_session_entries WHERE session_id = ANY($1) ORDER BY session_id, seq', [sessions])
  const { rows: ledgerRows } = await admin.query('SELECT session_id, call_id FROM rein_ledger WHERE session_id = ANY($1)', [sessions])
  const logs = new Map<string, SessionEntry[]>(sessions.map((s) => [s, []]))
  for (const row of entryRows) logs.get(row.session_id)!.push({ ...row.entry, seq: Number(row.seq) })
  const ran = new Map<string, number>()
  for (const row of ledgerRows) ran.set(`${row.session_id} ${row.call_id}`, (ran.get(`${row.session_id} ${row.call_id}`) ?? 0) + 1)

  const result: Audit = { sessions: sessions.length, committed: 0, outcomeUnknown: 0, notStarted: 0, ledgerRows: ledgerRows.length, problems: [] }
  const problem = (line: string) => { if (result.problems.length < 20) result.problems.push(line) }
  for (const [count, key] of [...ran].map(([key, n]) => [n, key] as const)) if (count > 1) problem(`ran ${count} times: ${key}`)
  for (const [session, entries] of logs) {
    const transcript = validateTranscript(buildMessages(entries))
    if (transcript.length > 0) problem(`${session}: transcript not valid: ${transcript.join('; ')}`)
    const logged = new Set(entries.flatMap((e) => (e.type === 'tool/call' ? [e.call.id] : [])))
    let ok = 0
    for (const entry of entries) {
      if (entry.type !== 'tool/result') continue
      const times = ran.get(`${session} ${entry.message.toolCallId}`) ?? 0
      if (!entry.message.isError) {
        ok++
        if (times !== 1) problem(`${session} ${entry.message.toolCallId}: committed, but in the ledger ${times} times`)
      }
      if (entry.code === 'TOOL_OUTCOME_UNKNOWN') result.outcomeUnknown++
      if (entry.code === 'TOOL_NOT_STARTED') result.notStarted++
    }
    result.committed += ok
    if (ok !== calls) problem(`${session}: ${ok} successful results, expected ${calls}`)
    for (const key of ran.keys()) {
      const [owner, call] = key.split(' ')
      if (owner === session && !logged.has(call)) problem(`${session} ${call}: in the ledger, but never logged as started`)
    }
  }
  return result
}
