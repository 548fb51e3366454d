/**
 * The PostgreSQL connections of one worker's sessions. A session store (`@rein/session-postgres`)
 * holds one connection for its run and gives it up when it closes; by itself it then ends it,
 * so that nothing it set on the connection — its writer lock above all — outlives it. But a new
 * connection costs more than all of a run's writes together (a backend started and a SCRAM
 * password exchange: about 5 ms of PostgreSQL's CPU and 3 ms of the worker's, measured), so
 * this pool does what a pooler in session mode does with PgBouncer's `server_reset_query`: a
 * connection given up is reset with `DISCARD ALL`, which also lets go of every advisory lock
 * and resets every session setting, and only then kept for the next run. A connection that
 * failed, or whose reset fails, is closed instead. A worker's runs never hold more connections
 * than its concurrency; idle ones are closed after a minute.
 */
import pg from 'pg'

/** Connections for the session stores of one worker: `postgresSession({ pool, id })`. */
export class SessionPool extends pg.Pool {
  constructor(connectionString: string, size: number) {
    super({ connectionString, max: size, keepAlive: true, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 60_000 })
    // An idle connection that breaks (PostgreSQL restarted) is dropped by the pool; the next run opens a new one.
    this.on('error', () => {})
  }

  /** A connection whose `release()` or `release(true)` resets it before the pool keeps it; `release(error)` closes it. */
  override connect(): Promise<pg.PoolClient>
  override connect(callback: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void
  override connect(callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void) {
    if (callback) return super.connect(callback)
    return super.connect().then((client) => {
      const giveBack = client.release
      client.release = (how?: Error | boolean) => {
        // `release(true)` is what a session store says to end its connection (so that its lock
        // ends with it); a reset ends the lock as surely, so only a broken one is closed.
        if (how instanceof Error) return giveBack(how)
        resetThenKeep(client, giveBack)
      }
      return client
    })
  }
}

/** `DISCARD ALL`, then back to the pool; closed instead when the reset fails. */
function resetThenKeep(client: pg.PoolClient, giveBack: (how?: Error | boolean) => void): void {
  // Between its user and the pool nobody listens for the connection's errors: this does.
  const onError = () => {}
  client.on('error', onError)
  client.query('DISCARD ALL').then(
    () => { client.off('error', onError); giveBack() },
    (error: Error) => { client.off('error', onError); giveBack(error) },
  )
}
