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
 * the flush to disk, as the writer's do.
 */
import type { NewSessionEntry, SessionEntry } from '@rein/agent'
import { connect, type Connection } from './connection.js'
import type { EntryColumns } from './entry-json.js'
import { unavailable, writeFailed } from './errors.js'
import { sessionKey } from './lock-key.js'
import type { Settings } from './options.js'
import { readEntries, type Queryable } from './read-entries.js'
import { describeHolder, lockedError } from './writer-lock.js'

/** The reads and conditional appends of one store that is not its session's writer. */
export interface SharedAccess {
  peek(): Promise<SessionEntry[]>
  /** Stores `entry` (`columns`: as `entryColumns` wrote it) as `after + 1`, or resolves `undefined` when the log moved on. */
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
  return {
    async peek() {
      try {
        return await readEntries(await db(), settings, id)
      } catch (error) {
        // No table yet (nothing was ever stored here): the session is empty, as a writer would find it.
        if ((error as { cause?: { code?: unknown } }).cause?.code === UNDEFINED_TABLE) return []
        throw error
      }
    },
    async appendAfter(entry, columns, after) {
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
      return Number(row.stored) === 1 ? Object.assign({}, entry, { seq: after + 1 }) as SessionEntry : undefined
    },
    async close() {
      const connection = await opened?.catch(() => undefined)
      opened = undefined
      await connection?.end()
    },
  }
}
