/**
 * One writer per session, enforced by the database: a writer holds a session-level advisory
 * lock on the session's key, taken with `pg_try_advisory_lock` on its dedicated connection and
 * held for the store's lifetime. PostgreSQL releases it when that connection ends for any
 * reason (close, a crash, a kill, the backend terminated), so a dead writer never blocks the
 * next one. A second writer is refused at once, told who holds the session when PostgreSQL
 * can say (each writer names itself in `application_name`: its pid and host).
 */
import { hostname } from 'node:os'
import type { ClientBase } from 'pg'
import { PostgresSessionError, sessionName } from './errors.js'
import { lockRow } from './lock-key.js'

/** How a writer names itself to the server (`application_name`, at most 63 bytes). */
export function writerName(): string {
  return `rein pid ${process.pid} on ${hostname()}`.replace(/[^\x20-\x7e]/g, '?').slice(0, 63)
}

/** Takes the session's writer lock on `client`, or throws `SESSION_LOCKED` naming the holder. */
export async function takeWriterLock(client: ClientBase, key: bigint, id: string): Promise<void> {
  // The holder may let go between a failed try and the look-up: then try once more.
  for (let attempt = 1; ; attempt++) {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS locked', [key.toString()])
    if (rows[0].locked) return
    const holder = await describeHolder(client, key)
    if (holder !== undefined || attempt === 2) throw lockedError(id, holder)
  }
}

/** `SESSION_LOCKED`: another connection holds session `id` (`holder`, as `describeHolder` says it, when known). */
export function lockedError(id: string, holder: string | undefined): PostgresSessionError {
  return new PostgresSessionError('SESSION_LOCKED',
    `${sessionName(id)} is already open for writing by another process (${holder ?? 'PostgreSQL did not say which'}); ` +
    'one writer at a time: close that store or end its process (its connection closing releases the session), then open it again')
}

/** Lets go of the lock (before the connection closes, so the next writer need not wait for the backend to exit). */
export async function releaseWriterLock(client: ClientBase, key: bigint): Promise<void> {
  await client.query('SELECT pg_advisory_unlock($1::bigint)', [key.toString()])
}

/** `rein pid 41 on build-3; PostgreSQL backend 7788, client 10.0.0.5`, as far as this user may see. */
export async function describeHolder(client: Pick<ClientBase, 'query'>, key: bigint): Promise<string | undefined> {
  const { classid, objid } = lockRow(key)
  const { rows } = await client.query<{ pid: number, application_name: string | null, client_addr: string | null }>(
    `SELECT l.pid, a.application_name, host(a.client_addr) AS client_addr
       FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
        AND l.classid = $1::oid AND l.objid = $2::oid
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [classid, objid])
  if (rows.length === 0) return undefined
  const { pid, application_name: app, client_addr: addr } = rows[0]
  const backend = `PostgreSQL backend ${pid}${addr ? `, client ${addr}` : ''}`
  if (!app) return backend
  return app.startsWith('rein pid ') ? `${app}; ${backend}` : `application ${JSON.stringify(app)}; ${backend}`
}
