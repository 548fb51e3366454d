/**
 * Reading and answering a session without opening it for writing (`peek`, `appendAfter` of a
 * store that is not its session's writer): what `answerApproval` and `pendingApprovals` do from
 * any process, at the cost of one statement each instead of a writer's dedicated connection,
 * settings, lock and last `seq`. With a pool each statement borrows a connection for itself
 * (nothing is set on it); with a connection string one connection is opened on first use and
 * kept until the store closes (or it breaks: the next statement opens another).
 * `appendAfter` is one INSERT that stores its entry as `after + 1` only when, in that very
 * statement, no connection holds the session's writer lock (a shared transaction lock on the
 * same key: refused while a writer holds it, and keeping a writer from opening until the
 * commit, but not other such inserts) and `after` is the last `seq` stored; the primary key
 * `(session_id, seq)` makes two inserts racing for one place land one. The commit waits for
 * the flush to disk, as the writer's do. Before that, the entry is checked against the rules
 * of approvals over the entries up to `after` (`ApprovalLedger`), as the last `peek` left them
 * when it read up to `after` (as `answerApproval` does), else read again; the INSERT's own
 * condition then makes sure they are still the entries it follows.
 */
import { ApprovalLedger, type NewSessionEntry, type SessionEntry } from '@rein/agent'
import { connect, type Connection } from './connection.js'
import type { EntryColumns } from './entry-json.js'
import { entryInvalid, unavailable, writeFailed } from './errors.js'
import { sessionKey } from './lock-key.js'
import type { Settings } from './options.js'
import { readEntries, type Queryable } from './read-entries.js'
import { describeHolder, lockedError } from './writer-lock.js'

/** The reads and conditional appends of one store that is not its session's writer. */
export interface SharedAccess {
  peek(): Promise<SessionEntry[]>
  /**
   * Stores `entry` (`columns`: as `entryColumns` wrote it) as `after + 1`, or resolves `undefined`
   * when the log moved on; rejects `ENTRY_INVALID` when the entry breaks the rules of approvals.
   */
  appendAfter(entry: NewSessionEntry, columns: EntryColumns, after: number): Promise<SessionEntry | undefined>
  /** Closes the connection opened for a connection string, if any. */
  close(): Promise<void>
}

// SQLSTATE undefined_table.
const UNDEFINED_TABLE = '42P01'

export function sharedAccess(settings: Settings, id: string): SharedAccess {
  const key = sessionKey(settings.qualified, id).toString()
  let opened: Promise<Connection> | undefined
  const db = async (): Promise<Queryable> => {
    const { pool } = settings.connection
    if (pool) return pool
    if (!opened) {
      // A connection that breaks is dropped; the next statement opens another.
      const attempt: Promise<Connection> = connect(settings, () => { if (opened === attempt) opened = undefined })
        .catch((error) => {
          if (opened === attempt) opened = undefined
          throw unavailable(settings, id, error)
        })
      opened = attempt
    }
    return (await opened).client
  }
  // The approvals of the entries up to `lastSeq`, as the last read left them: an append right after those is checked against them.
  let known: { lastSeq: number, ledger: ApprovalLedger } | undefined
  const read = async (): Promise<SessionEntry[]> => {
    const ledger = new ApprovalLedger()
    let entries: SessionEntry[]
    try {
      entries = await readEntries(await db(), settings, id, ledger)
    } catch (error) {
      // No table yet (nothing was ever stored here): the session is empty, as a writer would find it.
      if ((error as { cause?: { code?: unknown } }).cause?.code !== UNDEFINED_TABLE) throw error
      entries = []
    }
    known = { lastSeq: entries.at(-1)?.seq ?? 0, ledger }
    return entries
  }
  return {
    peek: read,
    async appendAfter(entry, columns, after) {
      if (known?.lastSeq !== after) await read()
      // Used once: the check below takes the entry in, whether or not the INSERT then lands.
      const ledger = known?.lastSeq === after ? known.ledger : undefined
      known = undefined
      if (!ledger) return undefined // the log is not at `after`: nothing is written after it
      const problem = ledger.problem(entry as SessionEntry)
      if (problem !== undefined) throw entryInvalid(id, `${problem}; a load would refuse the session after it`)
      const queryable = await db()
      let row: { free: boolean, stored: string }
      try {
        ({ rows: [row] } = await queryable.query<{ free: boolean, stored: string }>(
          `WITH free AS (SELECT pg_try_advisory_xact_lock_shared($5::bigint) AS ok, set_config('synchronous_commit', 'on', true)),
                stored AS (
                  INSERT INTO ${settings.qualified} (session_id, seq, entry, entry_text)
                  SELECT $1, $2::bigint + 1, $3::jsonb, $4::text FROM free
                   WHERE free.ok AND (SELECT coalesce(max(seq), 0) FROM ${settings.qualified} WHERE session_id = $1) = $2::bigint
                  ON CONFLICT (session_id, seq) DO NOTHING
                  RETURNING seq)
           SELECT (SELECT ok FROM free) AS free, (SELECT count(*) FROM stored) AS stored`,
          [id, after, columns.entry, columns.entryText, key]))
      } catch (error) {
        throw writeFailed(settings, id, error)
      }
      if (!row.free) throw lockedError(id, await describeHolder(queryable, BigInt(key)).catch(() => undefined))
      if (Number(row.stored) !== 1) return undefined
      known = { lastSeq: after + 1, ledger }
      return Object.assign({}, entry, { seq: after + 1 }) as SessionEntry
    },
    async close() {
      const connection = await opened?.catch(() => undefined)
      opened = undefined
      await connection?.end()
    },
  }
}
