/**
 * The options of `postgresSession` and `migrate`, checked once when they are given: a bad option
 * throws there, naming the option and the fix, before any connection is tried. From them comes
 * what errors may say about the server (`host:port/database`) and the strings they must never
 * show (the password, in every form it may be written, and the whole connection string).
 */
import pg from 'pg'
import type { Pool } from 'pg'

/** How to reach the server: a connection string, or a pool the caller owns. */
export type PostgresConnection =
  | {
    /** `postgres://user:password@host:port/database` (any form `pg` accepts). */
    connectionString: string
    pool?: undefined
    /** How long to wait for the server to answer a connection, in ms (default 10000). */
    connectTimeoutMs?: number
  }
  | {
    /** A `pg` Pool; the store takes one connection from it for its lifetime. */
    pool: Pool
    connectionString?: undefined
  }

/** Where the entries live (both default to rein's names; each a plain SQL identifier). */
export interface TableOptions {
  /** Default `public`. */
  schema?: string
  /** Default `rein_session_entries`. */
  table?: string
}

export type MigrateOptions = PostgresConnection & TableOptions

export type PostgresSessionOptions = MigrateOptions & {
  /** The session's id: every store opened with the same id (and table) reads and writes the same log (rule: `sessionIdProblem`). */
  id: string
}

/** Options once checked, with what errors may say. */
export interface Settings {
  connection: PostgresConnection
  schema: string
  table: string
  /** `"schema"."table"`, quoted for SQL. */
  qualified: string
  /** The server, as errors name it: `host:port/database`. */
  target: string
  /** Strings no error may contain. */
  secrets: string[]
  connectTimeoutMs: number
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/
const DEFAULT_TIMEOUT_MS = 10_000

/** Checks the connection and table options; throws `<caller>: <what is wrong>` on the first bad one. */
export function settingsOf(options: MigrateOptions, caller: string): Settings {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${caller}: expected an options object with "connectionString" or "pool"`)
  const schema = identifier(options.schema, 'schema', 'public', caller)
  const table = identifier(options.table, 'table', 'rein_session_entries', caller)
  const { connection, probe } = connectionOf(options, caller)
  const password = typeof probe.password === 'string' ? probe.password : ''
  const secrets = [password, encodeURIComponent(password), connection.connectionString ?? ''].filter((s) => s.length > 0)
  const connectTimeoutMs = connection.connectionString === undefined ? DEFAULT_TIMEOUT_MS : (connection.connectTimeoutMs ?? DEFAULT_TIMEOUT_MS)
  if (!Number.isInteger(connectTimeoutMs) || connectTimeoutMs <= 0) {
    throw new TypeError(`${caller}: "connectTimeoutMs" must be a whole number of ms above 0, got ${String(connectTimeoutMs)}`)
  }
  return {
    connection, schema, table, qualified: `"${schema}"."${table}"`,
    target: `${probe.host}:${probe.port}/${probe.database ?? probe.user ?? ''}`, secrets, connectTimeoutMs,
  }
}

function connectionOf(options: MigrateOptions, caller: string): { connection: PostgresConnection, probe: pg.Client } {
  const { connectionString, pool } = options
  if ((connectionString === undefined) === (pool === undefined)) {
    throw new TypeError(`${caller}: give exactly one of "connectionString" (postgres://user:password@host:port/database) or "pool" (a pg Pool)`)
  }
  if (pool !== undefined) {
    if (typeof pool !== 'object' || pool === null || typeof pool.connect !== 'function') {
      throw new TypeError(`${caller}: "pool" must be a pg Pool (new pg.Pool({ ... })), got ${typeof pool}`)
    }
    return { connection: { pool }, probe: probeOf(pool.options ?? {}, caller) }
  }
  if (typeof connectionString !== 'string' || connectionString.trim() === '') {
    throw new TypeError(`${caller}: "connectionString" must be a non-empty string (postgres://user:password@host:port/database)`)
  }
  const connectTimeoutMs = 'connectTimeoutMs' in options ? options.connectTimeoutMs : undefined
  return { connection: { connectionString, connectTimeoutMs }, probe: probeOf({ connectionString }, caller) }
}

/**
 * A client that is never connected, made only to read how `pg` resolves the options (the
 * connection string, then PG* variables, then its defaults). The parser's own error may quote
 * the connection string, password included, so it is replaced, not wrapped.
 */
function probeOf(config: pg.ClientConfig, caller: string): pg.Client {
  try {
    return new pg.Client(config)
  } catch {
    throw new TypeError(`${caller}: the connection string could not be read; expected postgres://user:password@host:port/database ` +
      '(characters such as @ : / in the password URL-encoded)')
  }
}

function identifier(value: unknown, name: string, fallback: string, caller: string): string {
  if (value === undefined) return fallback
  if (typeof value === 'string' && IDENTIFIER.test(value)) return value
  const shown = typeof value === 'string' ? JSON.stringify(value) : typeof value
  throw new TypeError(`${caller}: "${name}" must be a plain SQL identifier (a letter or _, then letters, digits or _; at most 63), got ${shown}`)
}
