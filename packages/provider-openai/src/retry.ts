/**
 * When and how long to wait before another attempt: which statuses are worth retrying, the
 * server's `retry-after` (seconds, an HTTP date, or OpenAI's `retry-after-ms`), exponential
 * backoff with jitter otherwise, and a sleep that ends early, rejecting, when the request's
 * signal aborts. Pure apart from `sleep`; the clock and randomness are parameters.
 */

/** 429 and every 5xx are transient: the same request may succeed later. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500
}

/**
 * The wait the server asked for, in ms, or undefined when it gave none (or nonsense).
 * `retry-after-ms` wins over `retry-after`; a date in the past means "now" (0).
 */
export function parseRetryAfter(headers: Headers, now: number): number | undefined {
  const ms = headers.get('retry-after-ms')
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms))
  const value = headers.get('retry-after')
  if (value === null || value.trim() === '') return undefined
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.ceil(Number(value) * 1000)
  const date = Date.parse(value)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

/**
 * The backoff before retry number `retry` (0 for the first): `base * 2^retry`, capped at `max`,
 * then scaled into [50%, 100%] by `random` so that many clients do not retry in step.
 */
export function backoffDelay(retry: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** retry)
  return Math.round(ceiling * (0.5 + 0.5 * random()))
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
