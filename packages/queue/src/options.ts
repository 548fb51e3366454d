/**
 * Options shared by workers, submitters and cancellers, checked when they are made (a bad one
 * throws `OPTIONS_INVALID` naming the option and the fix) and never per job. Also where the
 * queue's Redis names come from, so that every side agrees on them.
 */
import { sessionIdProblem } from '@rein/session-postgres'
import { QueueCodes, QueueError } from './codes.js'

/** Every key of a queue starts with this (BullMQ's `prefix`). */
export const PREFIX = 'rein'
/** The queue used when none is named. */
export const DEFAULT_QUEUE = 'runs'

/** Where a queue lives: the Redis server and the queue's name. */
export interface QueueTarget {
  /** `redis://[:password@]host:port[/db]` (or `rediss://` for TLS). */
  redis: string
  /** The queue's name (default `runs`); workers and submitters must use the same one. */
  queue?: string
}

/** The names a queue uses in Redis beyond BullMQ's own. */
export interface QueueKeys {
  name: string
  /** Pub/sub channel every worker of the queue listens on for cancellations. */
  cancelChannel: string
  /** A key that says job `jobId` was cancelled, for a worker that was not listening then. */
  cancelMarker(jobId: string): string
}

/** Checks `target` and returns its queue's names. */
export function keysOf(target: QueueTarget, caller: string): QueueKeys {
  checkRedisUrl(target.redis, caller)
  const name = target.queue ?? DEFAULT_QUEUE
  if (typeof name !== 'string' || !/^[A-Za-z0-9_.-]{1,100}$/.test(name)) {
    throw invalid(caller, `"queue" must be 1-100 letters, digits, ".", "_" or "-", got ${JSON.stringify(name)}`)
  }
  return {
    name,
    cancelChannel: `${PREFIX}:${name}:cancel`,
    cancelMarker: (jobId) => `${PREFIX}:${name}:cancelled:${jobId}`,
  }
}

/**
 * The longest a Node.js timer waits (2^31 - 1 ms, about 24.8 days): a longer one fires after
 * 1 ms, so a lock or interval beyond it would turn into a busy loop.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** The bounds of a worker's numeric options (`count`); `rein worker` checks its flags against them too. */
export const WORKER_LIMITS = {
  concurrency: { min: 1, max: 10_000 },
  lockDurationMs: { min: 100, max: MAX_TIMER_MS },
  stalledIntervalMs: { min: 100, max: MAX_TIMER_MS },
  maxStalledCount: { min: 0, max: 1_000_000 },
} as const

/** A whole number from `min` to `max`, or the default when undefined. */
export function count(caller: string, option: string, value: unknown, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`
    throw invalid(caller, `"${option}" must be a whole number ${range}, got ${JSON.stringify(value)}`)
  }
  return value
}

/** A non-empty string. */
export function text(caller: string, option: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw invalid(caller, `"${option}" must be a non-empty string, got ${value === '' ? 'an empty string' : typeof value}`)
  }
  return value
}

/**
 * A session id, by the session store's own rule (`sessionIdProblem`: 1-512 UTF-16 code units,
 * well-formed, no U+0000), so that Redis (the job's deduplication id) and PostgreSQL (the rows
 * and the writer lock) never disagree on which session an id names.
 */
export function sessionId(caller: string, value: unknown): string {
  const problem = sessionIdProblem(value)
  if (problem !== undefined) throw invalid(caller, `"session" ${problem}`)
  return value as string
}

/** `host:port/db` of a Redis URL: how errors name the server, without user or password. */
export function redisTarget(url: string): string {
  try {
    const parsed = new URL(url)
    const db = parsed.pathname.replace(/^\//, '') || '0'
    return `${parsed.hostname}:${parsed.port || '6379'}/${db}`
  } catch {
    return 'the Redis URL given'
  }
}

/** `host:port/db` of a PostgreSQL URL, without user or password (as the session store names it). */
export function postgresTarget(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}/${decodeURIComponent(parsed.pathname.replace(/^\//, '')) || parsed.username || 'postgres'}`
  } catch {
    return 'the PostgreSQL URL given'
  }
}

/** `text` with the URL's password (plain and URL-encoded) and any `user:password@` cut out. */
export function redactRedis(text: string, url: string): string {
  let out = text.replace(/\/\/[^/@\s]*@/g, '//***@')
  try {
    const { password } = new URL(url)
    for (const secret of [password, safeDecode(password)]) {
      if (secret.length >= 3) out = out.split(secret).join('***')
    }
  } catch {
    // not a URL: nothing more to cut
  }
  return out
}

/**
 * What is wrong with a PostgreSQL URL, or undefined: it must be a `postgres://` or
 * `postgresql://` URL (or, as the `pg` client also takes, a `socket:` URL or a socket folder
 * `/path db`). The client itself reads any other text as a host name, so a malformed URL would
 * fail later as a server that cannot be found.
 */
export function postgresUrlProblem(url: unknown): string | undefined {
  if (typeof url !== 'string' || url === '') return 'is missing'
  if (url.startsWith('/')) return undefined
  let protocol: string
  try {
    protocol = new URL(url).protocol
  } catch {
    return 'is not a URL; write it as postgres://user:password@host:port/db'
  }
  if (protocol === 'postgres:' || protocol === 'postgresql:' || protocol === 'socket:') return undefined
  return `must start with postgres:// or postgresql://, got ${JSON.stringify(protocol)}`
}

function checkRedisUrl(url: unknown, caller: string): void {
  if (typeof url !== 'string' || url === '') {
    throw invalid(caller, '"redis" must name the Redis server, e.g. redis://127.0.0.1:6379 (the CLI reads --redis or REIN_REDIS_URL)')
  }
  let protocol: string
  try {
    protocol = new URL(url).protocol
  } catch {
    throw new QueueError(QueueCodes.REDIS_UNAVAILABLE, `${caller}: the Redis URL is not a URL; write it as redis://[:password@]host:port[/db]`)
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    throw new QueueError(QueueCodes.REDIS_UNAVAILABLE,
      `${caller}: the Redis URL must start with redis:// or rediss://, got ${JSON.stringify(protocol)}`)
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

function invalid(caller: string, detail: string): QueueError {
  return new QueueError(QueueCodes.OPTIONS_INVALID, `${caller}: ${detail}`)
}
