/**
 * Connections to Redis. Long-lived ones (workers, watchers, the cancel channel) wait out an
 * outage: a command issued while Redis is away is queued and sent once it is back, so runs
 * wait rather than fail. A start-up check answers at once instead, with a sentence that names
 * the server as `host:port/db` and never shows the password.
 */
import { Redis } from 'ioredis'
import { QueueCodes, QueueError } from './codes.js'
import { redactRedis, redisTarget } from './options.js'

/** What BullMQ is given as `connection`: it makes its own connections from it, and closes them. */
export function bullConnection(url: string): { url: string, maxRetriesPerRequest: null } {
  return { url, maxRetriesPerRequest: null }
}

/** A connection of our own that waits out outages; the caller quits it. */
export function openConnection(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null })
  // Connection errors come again on every reconnect attempt; the caller learns of an outage
  // from its commands waiting, and a start-up check has already said whether Redis is there.
  redis.on('error', () => {})
  return redis
}

/** Throws `REDIS_UNAVAILABLE` unless Redis at `url` answers PING within `timeoutMs`. */
export async function checkRedis(url: string, caller: string, timeoutMs = 5000): Promise<void> {
  const probe = new Redis(url, {
    lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null,
  })
  // The cause comes as an 'error' event; the rejected call only says the connection closed.
  let cause: unknown
  probe.on('error', (error) => { cause ??= error })
  const timer = setTimeout(() => probe.disconnect(), timeoutMs)
  try {
    await probe.connect()
    await probe.ping()
  } catch (error) {
    const first = cause ?? error
    const reason = redactRedis(first instanceof Error ? first.message || String((first as { code?: unknown }).code) : String(first), url)
    throw new QueueError(QueueCodes.REDIS_UNAVAILABLE,
      `${caller}: cannot use Redis at ${redisTarget(url)} (${reason}); check that it is running and reachable, ` +
      'and the password in the URL (--redis or REIN_REDIS_URL)')
  } finally {
    clearTimeout(timer)
    probe.disconnect()
  }
}
