/**
 * Every error the store throws: a `PostgresSessionError` with a stable `code` and a message
 * that says where (`postgres session "<id>"`), what is wrong and what to do. The driver's own
 * error is kept only as a copy of its code and message with every secret (the password in any
 * form, the connection string, a `user:password@` in any URL) cut out, so no error, `cause` or
 * log line built from one ever shows the password.
 */
import type { Settings } from './options.js'

/** What went wrong, for code that reacts to it (a worker retrying a locked session later). */
export type PostgresSessionCode =
  /** Another process holds the session for writing. */
  | 'SESSION_LOCKED'
  /** The server could not be reached, or refused the connection. */
  | 'POSTGRES_UNAVAILABLE'
  /** The connection was lost, a write failed, or the store was closed: this store refuses every later call. */
  | 'SESSION_WRITE_FAILED'
  /** What the table holds for this session is not a valid log. */
  | 'SESSION_DAMAGED'
  /** An entry given to `append` is not a valid entry; nothing was stored, later appends go on. */
  | 'ENTRY_INVALID'

export class PostgresSessionError extends Error {
  override readonly name = 'PostgresSessionError'

  constructor(readonly code: PostgresSessionCode, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause })
  }
}

/** `session "<id>"` as errors name it (the id quoted as JSON, so any character shows plainly). */
export function sessionName(id: string): string {
  return `session ${JSON.stringify(id)}`
}

/** The driver's reason in a few words, every secret cut out. */
export function reasonOf(error: unknown, settings: Settings): string {
  return redact(describe(error), settings.secrets)
}

/**
 * A copy of the driver's error safe to keep as a `cause`: its code (SQLSTATE or system error)
 * and its message with the secrets cut out, nothing else (the original may hold the config).
 */
export function safeCause(error: unknown, settings: Settings): Error {
  const copy = new Error(reasonOf(error, settings)) as Error & { code?: string }
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string') copy.code = code
  return copy
}

/** The server could not be reached (or refused us): nothing was stored. */
export function unavailable(settings: Settings, id: string, error: unknown): PostgresSessionError {
  return new PostgresSessionError('POSTGRES_UNAVAILABLE',
    `postgres ${sessionName(id)}: cannot connect to PostgreSQL at ${settings.target} (${reasonOf(error, settings)}); ` +
    'nothing was stored: check that the server is running and reachable, and the user and password', safeCause(error, settings))
}

/** `ENTRY_INVALID`: an entry not appended, for `problem`; nothing of it was stored and the store goes on. */
export function entryInvalid(id: string, problem: string): PostgresSessionError {
  return new PostgresSessionError('ENTRY_INVALID', `session entry not appended to postgres ${sessionName(id)}: ${problem}`)
}

/** A write failed or the connection was lost: this store is done. */
export function writeFailed(settings: Settings, id: string, error: unknown): PostgresSessionError {
  return new PostgresSessionError('SESSION_WRITE_FAILED',
    `postgres ${sessionName(id)}: an append to PostgreSQL at ${settings.target} failed (${reasonOf(error, settings)}); ` +
    'its entries were stored whole or not at all, and this store refuses every later call: open the session again to resume',
    safeCause(error, settings))
}

/** The connection broke: the session is no longer held by this store. */
export function connectionLost(settings: Settings, id: string, error: unknown): PostgresSessionError {
  return new PostgresSessionError('SESSION_WRITE_FAILED',
    `postgres ${sessionName(id)}: the connection to PostgreSQL at ${settings.target} was lost (${reasonOf(error, settings)}); ` +
    'an append in flight was stored whole or not at all, and this store no longer holds the session and refuses every later call: ' +
    'open the session again to resume',
    safeCause(error, settings))
}

/** A call after `close()`: the store does not open the session again. */
export function storeClosed(id: string): PostgresSessionError {
  return new PostgresSessionError('SESSION_WRITE_FAILED',
    `postgres ${sessionName(id)}: the store is closed; nothing was read or stored: open the session again with a new postgresSession()`)
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  // A connection to a name with several addresses fails with an AggregateError whose own message is empty.
  const inner = (error as { errors?: unknown }).errors
  if (error.message === '' && Array.isArray(inner) && inner.length > 0) return inner.map(describe).join('; ')
  const code = (error as { code?: unknown }).code
  return error.message || (typeof code === 'string' ? code : error.name)
}

const CREDENTIALS_IN_URL = /(\/\/[^/@\s:]*):[^@\s]*@/g

function redact(text: string, secrets: string[]): string {
  let out = text.replace(CREDENTIALS_IN_URL, '$1:***@')
  // Longest first, so the connection string goes whole before the password inside it.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join('***')
  return out
}
