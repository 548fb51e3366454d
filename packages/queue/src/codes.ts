/**
 * The failure codes of `@rein/queue`, in one place. Every `QueueError` carries one, and a
 * message that names the server as `host:port` (never with its password) and says what to do.
 * A run's own failures are not here: they are the run's outcome (`kind: 'error'`).
 */

export const QueueCodes = {
  /** Redis cannot be reached, refused the login, or the URL is not a Redis URL. */
  REDIS_UNAVAILABLE: 'REDIS_UNAVAILABLE',
  /** PostgreSQL cannot be reached or refused the login (a worker checks it before it starts). */
  POSTGRES_UNAVAILABLE: 'POSTGRES_UNAVAILABLE',
  /** The session already has a run queued or running: one run per session at a time. */
  SESSION_BUSY: 'SESSION_BUSY',
  /** An option given to createWorker, submit or cancel is wrong, or a worker's harness cannot make an agent. */
  OPTIONS_INVALID: 'OPTIONS_INVALID',
} as const

export type QueueCode = typeof QueueCodes[keyof typeof QueueCodes]

export class QueueError extends Error {
  override readonly name = 'QueueError'

  constructor(readonly code: QueueCode, message: string) {
    super(message)
  }
}
