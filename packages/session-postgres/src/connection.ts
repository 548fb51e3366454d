/**
 * One dedicated connection: a new client for a connection string, or one taken from the
 * caller's pool. While it is held, a failure of the connection (the server gone, the backend
 * terminated) is reported to `onLost` instead of crashing the process as an unheard `error`
 * event would, and a pooled connection that broke goes back to its pool at once, to be dropped.
 * `end()` closes the connection itself, even one from a pool (the pool opens a fresh one
 * later), so nothing this store set on it, its locks included, outlives it.
 */
import pg from 'pg'
import type { ClientBase } from 'pg'
import type { Settings } from './options.js'

export interface Connection {
  client: ClientBase
  end(): Promise<void>
}

export async function connect(settings: Settings, onLost: (error: Error) => void): Promise<Connection> {
  const { connection } = settings
  if (connection.pool) {
    const client = await connection.pool.connect()
    let released = false
    // A broken connection goes back to the pool at once (to be dropped), so it never keeps a slot.
    const release = (error?: Error) => {
      if (released) return
      released = true
      client.off('error', onError)
      client.release(error ?? true)
    }
    const onError = (error: Error) => {
      release(error)
      onLost(error)
    }
    client.on('error', onError)
    return { client, end: async () => release() }
  }
  const client = new pg.Client({
    connectionString: connection.connectionString,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    keepAlive: true,
  })
  // Kept for the client's whole life: an error can come after end() too.
  client.on('error', onLost)
  try {
    await client.connect()
  } catch (error) {
    await client.end().catch(() => {})
    throw error
  }
  return { client, end: () => client.end().catch(() => {}) }
}
