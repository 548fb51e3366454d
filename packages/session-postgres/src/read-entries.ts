/**
 * Reading a session's log: every row of the session in `seq` order, each entry checked as it is
 * read, as the JSONL store checks a file: its shape and `seq` (`sessionEntryProblem`), and the
 * rules of approvals over the entries before it (`ApprovalLedger`: a request for a call no
 * assistant message made, an answer given twice, are damage). The writer reads through its own
 * connection (`load`); `peek` through any.
 */
import { ApprovalLedger, sessionEntryProblem, type SessionEntry } from '@rein/agent'
import type { ClientBase } from 'pg'
import { entryOf } from './entry-json.js'
import { PostgresSessionError, reasonOf, safeCause, sessionName } from './errors.js'
import type { Settings } from './options.js'

/** What runs a query: a connection, or a pool (`pool.query` takes a connection for one statement). */
export type Queryable = Pick<ClientBase, 'query'>

/** A stored row, as read. */
export interface EntryRow { seq: string, entry: unknown, entry_text: string | null }

/** The statement that reads a session's rows, in `seq` order (parameter: the session id). */
export function rowsQuery(settings: Settings): string {
  return `SELECT seq, entry, entry_text FROM ${settings.qualified} WHERE session_id = $1 ORDER BY seq`
}

/**
 * Every entry, in `seq` order, each checked; throws `SESSION_DAMAGED` at the first that is not
 * valid. `ledger`, when given, is left holding the approvals of every entry read.
 */
export async function readEntries(db: Queryable, settings: Settings, id: string, ledger = new ApprovalLedger()): Promise<SessionEntry[]> {
  let rows: EntryRow[]
  try {
    ({ rows } = await db.query<EntryRow>(rowsQuery(settings), [id]))
  } catch (error) {
    throw new PostgresSessionError('SESSION_WRITE_FAILED',
      `postgres ${sessionName(id)}: reading the session from PostgreSQL at ${settings.target} failed (${reasonOf(error, settings)})`,
      safeCause(error, settings))
  }
  return entriesOf(rows, settings, id, ledger)
}

/**
 * The entries of `rows` (in `seq` order), each checked; throws `SESSION_DAMAGED` at the first
 * that is not valid, naming its seq and what is wrong but never quoting what the row holds.
 * `ledger` (new, or given to keep) takes in the approval entries as they are checked.
 */
export function entriesOf(rows: EntryRow[], settings: Settings, id: string, ledger = new ApprovalLedger()): SessionEntry[] {
  const entries: SessionEntry[] = []
  for (const row of rows) {
    const seq = Number(row.seq)
    const value = valueOf(row)
    const entry = typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value, seq } : value
    const problem = value === NOT_JSON
      ? '"entry_text" is not valid JSON (its text is not shown here: it may hold a secret)'
      : sessionEntryProblem(entry, entries.at(-1)?.seq ?? 0) ?? ledger.problem(entry as SessionEntry)
    if (problem !== undefined) {
      throw new PostgresSessionError('SESSION_DAMAGED', `${settings.qualified} ${sessionName(id)} seq ${seq}: ${problem}`)
    }
    entries.push(entry as SessionEntry)
  }
  return entries
}

const NOT_JSON: unique symbol = Symbol('not JSON')

/** What the row holds, or `NOT_JSON` when its exact text is not JSON (the parser's message, which quotes it, is dropped). */
function valueOf(row: EntryRow): unknown {
  try {
    return entryOf(row.entry, row.entry_text)
  } catch {
    return NOT_JSON
  }
}
