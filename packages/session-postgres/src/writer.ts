/**
 * Opening a session for writing, in this order: one dedicated connection, named after this
 * process and set to wait for each commit to be flushed (`synchronous_commit = on`); the table
 * made sure of; the session's writer lock taken (these three asked in one statement); the last
 * `seq` read (or, for a `load`, every entry, so that it need not read them again), the log
 * checked to have no gap. Any step failing closes the connection and throws a `PostgresSessionError` saying which.
 * Every later write of the store goes through this connection, so it is done by the backend
 * that holds the lock: when the connection is lost, the lock and the right to write go with it.
 */
import type { ClientBase } from 'pg'
import type { SessionEntry } from '@rein/agent'
import { connect } from './connection.js'
import { PostgresSessionError, reasonOf, safeCause, sessionName, unavailable } from './errors.js'
import { sessionKey } from './lock-key.js'
import type { Settings } from './options.js'
import { entriesOf, rowsQuery, type EntryRow } from './read-entries.js'
import { ensureTable } from './schema.js'
import { releaseWriterLock, takeWriterLock, writerName } from './writer-lock.js'

/** An open session: the connection that holds its lock, and the last `seq` stored. */
export interface Writer {
  client: ClientBase
  key: bigint
  lastSeq: number
  /** Every entry as the session was opened, when it was opened for a `load`. */
  entries?: SessionEntry[]
  /** Lets go of the lock and closes the connection. */
  close(): Promise<void>
}

/** Opens session `id` for writing; `withEntries`: reads every entry as it opens (for a `load`), not just the last `seq`. */
export async function openWriter(settings: Settings, id: string, onLost: (error: Error) => void, withEntries = false): Promise<Writer> {
  const connection = await connect(settings, onLost).catch((error) => { throw unavailable(settings, id, error) })
  const { client } = connection
  const key = sessionKey(settings.qualified, id)
  let step = 'prepare the connection'
  try {
    // The first three steps in one round trip; a step that did not go through is then done alone.
    const { rows: [first] } = await client.query<{ found: string | null, locked: boolean }>(
      "SELECT set_config('application_name', $1, false), set_config('synchronous_commit', 'on', false), " +
      'to_regclass($2)::text AS found, pg_try_advisory_lock($3::bigint) AS locked', [writerName(), settings.qualified, key.toString()])
    step = `make sure the table ${settings.qualified} exists`
    if (first.found === null) await ensureTable(client, settings)
    step = 'take the session\'s writer lock'
    if (!first.locked) await takeWriterLock(client, key, id)
    step = 'read the session'
    const { lastSeq, entries } = withEntries ? await storedEntries(client, settings, id) : { lastSeq: await lastStoredSeq(client, settings, id), entries: undefined }
    return {
      client, key, lastSeq, entries,
      async close() {
        await releaseWriterLock(client, key).catch(() => {})
        await connection.end()
      },
    }
  } catch (error) {
    await connection.end()
    if (error instanceof PostgresSessionError) throw error
    throw new PostgresSessionError('POSTGRES_UNAVAILABLE',
      `postgres ${sessionName(id)}: could not ${step} at ${settings.target} (${reasonOf(error, settings)}); nothing was stored` +
      (step.startsWith('make sure') ? ': create it ahead with migrate() as a user allowed to, or name a schema this user may create in' : ''),
      safeCause(error, settings))
  }
}

/** The highest `seq` of the session (0 when new); throws `SESSION_DAMAGED` when entries before it are missing. */
async function lastStoredSeq(client: ClientBase, settings: Settings, id: string): Promise<number> {
  const { rows } = await client.query<{ count: string, last: string | null }>(
    `SELECT count(*) AS count, max(seq) AS last FROM ${settings.qualified} WHERE session_id = $1`, [id])
  return checkedLast(Number(rows[0].count), Number(rows[0].last ?? 0), settings, id)
}

/** Every entry and the highest `seq`, in one statement; the same `SESSION_DAMAGED` as `lastStoredSeq` when entries are missing. */
async function storedEntries(client: ClientBase, settings: Settings, id: string): Promise<{ lastSeq: number, entries: SessionEntry[] }> {
  const { rows } = await client.query<EntryRow>(rowsQuery(settings), [id])
  const lastSeq = checkedLast(rows.length, Number(rows.at(-1)?.seq ?? 0), settings, id)
  return { lastSeq, entries: entriesOf(rows, settings, id) }
}

function checkedLast(count: number, last: number, settings: Settings, id: string): number {
  if (count !== last) {
    throw new PostgresSessionError('SESSION_DAMAGED',
      `${settings.qualified} ${sessionName(id)}: seq runs to ${last} but ${count} entries are stored (entries are missing); ` +
      'the log is refused as it is')
  }
  return last
}
