/**
 * Opening a session for writing, in this order: one dedicated connection, named after this
 * process and set to wait for each commit to be flushed (`synchronous_commit = on`); the table
 * made sure of; the session's writer lock taken (these three asked in one statement); every
 * entry read and checked as a `load` checks it (no gap, each valid, the rules of approvals
 * kept: the ledger is kept, to check each append against), so that no append lands
 * after a damaged log, whether the first call was a `load` or an `append`. A new session costs
 * that one statement, as reading its last `seq` did; a long one costs what its `load` would.
 * Any step failing closes the connection and throws a `PostgresSessionError` saying which.
 * Every later write of the store goes through this connection, so it is done by the backend
 * that holds the lock: when the connection is lost, the lock and the right to write go with it.
 */
import type { ClientBase } from 'pg'
import { ApprovalLedger, type SessionEntry } from '@rein/agent'
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
  /** The approvals of every entry stored, to check each append against (a load would refuse one that breaks their rules). */
  ledger: ApprovalLedger
  /** Every entry as the session was opened, when it was opened for a `load`. */
  entries?: SessionEntry[]
  /** Lets go of the lock and closes the connection. */
  close(): Promise<void>
}

/**
 * Opens session `id` for writing; throws `SESSION_DAMAGED` when what is stored is not a valid
 * log. `withEntries`: keeps the entries it read (for a `load`), else lets them go.
 */
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
    const ledger = new ApprovalLedger()
    const { lastSeq, entries } = await storedEntries(client, settings, id, ledger)
    return {
      client, key, lastSeq, ledger, entries: withEntries ? entries : undefined,
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

/**
 * Every entry and the highest `seq` (0 when new), in one statement; throws `SESSION_DAMAGED`
 * when entries are missing or one is not valid (`entriesOf`).
 */
async function storedEntries(client: ClientBase, settings: Settings, id: string, ledger: ApprovalLedger): Promise<{ lastSeq: number, entries: SessionEntry[] }> {
  const { rows } = await client.query<EntryRow>(rowsQuery(settings), [id])
  const lastSeq = checkedLast(rows.length, Number(rows.at(-1)?.seq ?? 0), settings, id)
  return { lastSeq, entries: entriesOf(rows, settings, id, ledger) }
}

function checkedLast(count: number, last: number, settings: Settings, id: string): number {
  if (count !== last) {
    throw new PostgresSessionError('SESSION_DAMAGED',
      `${settings.qualified} ${sessionName(id)}: seq runs to ${last} but ${count} entries are stored (entries are missing); ` +
      'the log is refused as it is')
  }
  return last
}
