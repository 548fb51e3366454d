/**
 * When and how long to wait before another attempt: which answers are worth retrying (408,
 * 409, 429, every 5xx including Anthropic's 529 "overloaded", unless the server says otherwise
 * with `x-should-retry`), the wait the server asked for (`retry-after-ms`, `retry-after` in
 * seconds or as an HTTP date), exponential backoff with jitter otherwise, and a sleep that
 * rejects as soon as the request's signal aborts. Pure apart from `sleep`.
 */

/** Whether an answer with this status and these headers may succeed if sent again. */
export function isRetryable(status: number, headers: Headers): boolean {
  const told = headers.get('x-should-retry')?.trim().toLowerCase()
  if (told === 'true') return true
  if (told === 'false') return false
  return status === 408 || status === 409 || status === 429 || status >= 500
}

const NUMBER = /^\s*\d+(\.\d+)?\s*$/

/** The wait the server asked for, in ms; undefined when it gave none (or nonsense). A past date is 0. */
export function parseRetryAfter(headers: Headers, now: number): number | undefined {
  const ms = headers.get('retry-after-ms')
  if (ms !== null && NUMBER.test(ms)) return Math.ceil(Number(ms))
  const value = headers.get('retry-after')
  if (value === null || value.trim() === '') return undefined
  if (NUMBER.test(value)) return Math.ceil(Number(value) * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** The wait before retry number `retry` (0 first): `base * 2^retry` capped at `max`, scaled into [50%, 100%] by `random`. */
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
