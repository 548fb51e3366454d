/**
 * A real PostgreSQL for each test file (started from the machine's binaries, stopped after),
 * or, where there is none, a skip that says what is missing (in CI a missing server fails).
 * `admin` reads and meddles with the database directly, as another process would.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { startPostgres, whyNoPostgres, type PostgresServer } from '@rein/testing'
import type { PostgresSessionError } from '../src/index.js'
import { lockRow, sessionKey } from '../src/lock-key.js'

export const TABLE = '"public"."rein_session_entries"'

/** A session id no other test uses. */
export const newId = () => `session-${randomUUID()}`

export interface Database {
  server: PostgresServer
  /** A pool of its own, for reading and meddling as another process would. */
  admin: pg.Pool
}

/**
 * `describe`, with a server started before its tests and stopped after them. Without the
 * binaries it skips, saying what is missing (whyNoPostgres throws instead when CI=true).
 */
export function describeWithPostgres(name: string, body: (db: () => Database) => void): void {
  const missing = whyNoPostgres()
  if (missing !== undefined) {
    console.warn(`${name}: skipped, ${missing}`)
    describe(name, () => it.skip(`needs a PostgreSQL server: ${missing}`))
    return
  }
  let db: Database | undefined
  describe(name, () => {
    beforeAll(async () => {
      const server = await startPostgres()
      const admin = new pg.Pool({ connectionString: server.url, max: 3 })
      admin.on('error', () => {}) // its idle connections break when a test stops the server
      db = { server, admin }
    }, 60_000)
    afterAll(async () => {
      await db?.admin.end()
      await db?.server.close()
    }, 60_000)
    body(() => db!)
  })
}

/** The entries stored for session `id`, read directly, as `{ ...entry, seq }`. */
export async function storedEntries(admin: pg.Pool, id: string, table = TABLE): Promise<object[]> {
  const { rows } = await admin.query(`SELECT seq, entry, entry_text FROM ${table} WHERE session_id = $1 ORDER BY seq`, [id])
  return rows.map((row) => ({ ...(row.entry_text === null ? row.entry : JSON.parse(row.entry_text)), seq: Number(row.seq) }))
}

/** The backend pid of the connection that holds session `id` for writing, if any. */
export async function writerPid(admin: pg.Pool, id: string, table = TABLE): Promise<number | undefined> {
  const { classid, objid } = lockRow(sessionKey(table, id))
  const { rows } = await admin.query(
    `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND classid = $1::oid AND objid = $2::oid`,
    [classid, objid])
  return rows[0]?.pid
}

/** Ends the writer's backend, as a crash of its process (or its network) would end its connection. */
export async function killWriter(admin: pg.Pool, id: string, table = TABLE): Promise<void> {
  const pid = await writerPid(admin, id, table)
  if (pid === undefined) throw new Error(`no writer holds session ${id}`)
  await admin.query('SELECT pg_terminate_backend($1, 5000)', [pid])
}

/** The error `promise` rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<PostgresSessionError> {
  try {
    await promise
  } catch (error) {
    return error as PostgresSessionError
  }
  throw new Error('expected a rejection, but it resolved')
}
