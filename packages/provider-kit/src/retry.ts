/**
 * When and how long to wait before another attempt: which answers are worth retrying (the
 * provider says which statuses; a server's `x-should-retry` wins where the provider honours it),
 * the wait the server asked for (`retry-after-ms`, `retry-after` in seconds or as an HTTP date),
 * exponential backoff with jitter otherwise, and a sleep that rejects as soon as the request's
 * signal aborts. Pure apart from `sleep`; the clock and the dice are parameters. A `retry-after`
 * that is neither a number of seconds nor an HTTP date is no advice; a wait longer than a timer
 * can hold is slept in steps, never cut short.
 */
import { MAX_TIMER_MS } from '@rein/kernel'

/** How a provider retries. The first three are config keys of every provider, with these defaults. */
export interface RetryPolicy {
  /** Retries after a retryable answer or a connection failure before the body began (0 to 10); `maxRetries + 1` requests at most. Default 2. */
  maxRetries: number
  /** First backoff delay when the server gives no `retry-after`; doubles per retry. Default 500; at most `MAX_TIMER_MS`. */
  retryBaseDelayMs: number
  /** The longest wait between attempts; a longer `retry-after` fails at once instead. Default 60000; at most `MAX_TIMER_MS`. */
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

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)'
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)'
const TIME = '\\d{2}:\\d{2}:\\d{2}'
/** The three forms of an HTTP date (RFC 9110, 5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`, its obsolete RFC 850 form, asctime's. */
const HTTP_DATES = [
  new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`),
  new RegExp(`^${DAY}[a-z]*, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`),
  new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`),
]

/** Milliseconds from a number that may be too large to hold: capped where it no longer matters. */
const finite = (ms: number): number => Math.min(Math.ceil(ms), Number.MAX_SAFE_INTEGER)

/** An HTTP date as epoch ms, or NaN when `value` is not one (`Date.parse` alone reads `-5` or `foo 2` as dates). */
function httpDate(value: string): number {
  const text = value.trim()
  if (!HTTP_DATES.some((form) => form.test(text))) return Number.NaN
  // asctime's form names no zone, and is GMT; Date.parse would read it as local time.
  return Date.parse(text.endsWith('GMT') ? text : `${text} GMT`)
}

/**
 * The wait the server asked for, in ms, or undefined when it gave none or nothing readable
 * (then the backoff applies). `retry-after-ms` wins over `retry-after`, which is seconds or an
 * HTTP date; a date in the past means "now" (0). A number too large to hold stays finite.
 */
export function parseRetryAfter(headers: Headers, now: number): number | undefined {
  const ms = headers.get('retry-after-ms')
  if (ms !== null && NUMBER.test(ms)) return finite(Number(ms))
  const value = headers.get('retry-after')
  if (value === null) return undefined
  if (NUMBER.test(value)) return finite(Number(value) * 1000)
  const date = httpDate(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/**
 * The backoff before retry number `retry` (0 for the first): `base * 2^retry`, capped at `max`,
 * then scaled into [50%, 100%] by `random` so that many clients do not retry in step.
 */
export function backoffDelay(retry: number, baseMs: number, maxMs: number, random: () => number): number {
  return Math.round(Math.min(maxMs, baseMs * 2 ** retry) * (0.5 + 0.5 * random()))
}

/**
 * Waits `ms`, or rejects with the signal's reason as soon as it aborts (at once if it already has).
 * A timer holds at most `MAX_TIMER_MS` (Node fires a longer one after 1 ms), so a longer wait
 * is slept in steps of at most that.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(signal.reason); return }
    let timer: ReturnType<typeof setTimeout> | undefined
    const onAbort = () => { clearTimeout(timer); reject(signal?.reason) }
    const step = (left: number) => {
      const span = Math.min(left, MAX_TIMER_MS)
      timer = setTimeout(() => {
        if (left > span) { step(left - span); return }
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }, span)
    }
    step(ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
