/**
 * When and how long to wait before another attempt: which answers are worth retrying (the
 * provider says which statuses; a server's `x-should-retry` wins where the provider honours it),
 * the wait the server asked for (`retry-after-ms`, `retry-after` in seconds or as an HTTP date),
 * exponential backoff with jitter otherwise, and a sleep that rejects as soon as the request's
 * signal aborts. Pure apart from `sleep`; the clock and the dice are parameters.
 */

/** How a provider retries. The first three are config keys of every provider, with these defaults. */
export interface RetryPolicy {
  /** Retries after a retryable answer or a connection failure before the body began (0 to 10); `maxRetries + 1` requests at most. Default 2. */
  maxRetries: number
  /** First backoff delay when the server gives no `retry-after`; doubles per retry. Default 500. */
  retryBaseDelayMs: number
  /** The longest wait between attempts; a longer `retry-after` fails at once instead. Default 60000. */
  maxRetryDelayMs: number
  /** Whether an answer with this status may succeed if sent again (e.g. `transientStatus`). */
  retryableStatus: (status: number) => boolean
  /** Follow the server's `x-should-retry: true | false` over the status. */
  honourShouldRetry?: boolean
}

/** 429 and every 5xx: the statuses every provider retries. */
export function transientStatus(status: number): boolean {
  return status === 429 || status >= 500
}

/** Whether an answer with this status and these headers may succeed if sent again, under `policy`. */
export function isRetryable(status: number, headers: Headers, policy: Pick<RetryPolicy, 'retryableStatus' | 'honourShouldRetry'>): boolean {
  if (policy.honourShouldRetry) {
    const told = headers.get('x-should-retry')?.trim().toLowerCase()
    if (told === 'true') return true
    if (told === 'false') return false
  }
  return policy.retryableStatus(status)
}

const NUMBER = /^\s*\d+(\.\d+)?\s*$/

/**
 * The wait the server asked for, in ms, or undefined when it gave none (or nonsense).
 * `retry-after-ms` wins over `retry-after`; a date in the past means "now" (0).
 */
export function parseRetryAfter(headers: Headers, now: number): number | undefined {
  const ms = headers.get('retry-after-ms')
  if (ms !== null && NUMBER.test(ms)) return Math.ceil(Number(ms))
  const value = headers.get('retry-after')
  if (value === null || value.trim() === '') return undefined
  if (NUMBER.test(value)) return Math.ceil(Number(value) * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/**
 * The backoff before retry number `retry` (0 for the first): `base * 2^retry`, capped at `max`,
 * then scaled into [50%, 100%] by `random` so that many clients do not retry in step.
 */
export function backoffDelay(retry: number, baseMs: number, maxMs: number, random: () => number): number {
  return Math.round(Math.min(maxMs, baseMs * 2 ** retry) * (0.5 + 0.5 * random()))
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts (at once if it already has). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(signal.reason); return }
    const onAbort = () => { clearTimeout(timer); reject(signal?.reason) }
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve() }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
