/**
 * Real servers for the queue tests: a throwaway Redis and PostgreSQL per test file (started
 * from the machine's binaries, stopped after), or, where either is missing, a skip that says
 * what is missing (with CI=true a missing server fails instead). Also the ledger the fixture
 * tool writes, and the fixture harness every test worker runs.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { loadHarness, type Harness } from '@rein/loader'
import { startPostgres, startRedis, whyNoPostgres, whyNoRedis, type PostgresServer, type RedisServer, type StartRedisOptions } from '@rein/testing'
import { FIXTURE } from './fleet.js'

export interface Servers {
  redis: RedisServer
  postgres: PostgresServer
  /** A pool of the test's own, to read the ledger and the sessions. */
  admin: pg.Pool
}

/** `describe` with both servers started before its tests and stopped after them. */
export function describeWithServers(name: string, body: (servers: () => Servers) => void, options: { redis?: StartRedisOptions } = {}): void {
  const missing = [whyNoRedis(), whyNoPostgres()].filter((why) => why !== undefined)
  if (missing.length > 0) {
    console.warn(`${name}: skipped, ${missing.join('; ')}`)
    describe(name, () => it.skip(`needs Redis and PostgreSQL: ${missing.join('; ')}`))
    return
  }
  let servers: Servers | undefined
  describe(name, () => {
    beforeAll(async () => {
      const [redis, postgres] = await Promise.all([startRedis(options.redis), startPostgres()])
      const admin = new pg.Pool({ connectionString: postgres.url, max: 3 })
      admin.on('error', () => {}) // its idle connections break when a test stops the server
      await admin.query('CREATE TABLE IF NOT EXISTS rein_ledger (session_id text NOT NULL, call_id text NOT NULL, step int NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())')
      servers = { redis, postgres, admin }
    }, 60_000)
    afterAll(async () => {
      await servers?.admin.end()
      await Promise.all([servers?.redis.close(), servers?.postgres.close()])
    }, 60_000)
    body(() => servers!)
  })
}

/** A queue name no other test uses. */
export const newQueue = () => `q-${randomUUID().slice(0, 8)}`

/** A session id no other test uses. */
export const newSession = (label = 's') => `${label}-${randomUUID().slice(0, 8)}`

/** The fixture harness loaded once, its ledger in `postgresUrl`: what a worker shares between its runs. The test disposes it. */
export function loadFixture(postgresUrl: string): Promise<Harness> {
  return loadHarness(FIXTURE, { env: { REIN_LEDGER_URL: postgresUrl } })
}

/** Ledger rows of `sessions`: every call the tool's body began, as `(session, call id)`. */
export async function ledger(admin: pg.Pool, sessions: readonly string[]): Promise<Array<{ session: string, call: string }>> {
  const { rows } = await admin.query('SELECT session_id, call_id FROM rein_ledger WHERE session_id = ANY($1) ORDER BY at', [sessions])
  return rows.map((row) => ({ session: row.session_id, call: row.call_id }))
}

/** The stored entries of session `id`. */
export async function sessionEntries(admin: pg.Pool, id: string): Promise<Array<Record<string, any>>> {
  const { rows } = await admin.query('SELECT seq, entry FROM rein_session_entries WHERE session_id = $1 ORDER BY seq', [id])
  return rows.map((row) => ({ ...row.entry, seq: Number(row.seq) }))
}
