/**
 * Exponential backoff with full jitter, and a sleep that an abort ends at once. The delay
 * before retry n (n = 1 for the first) is uniform in [0, min(maxDelayMs, baseDelayMs * 2^(n-1)))
 * — full jitter spreads callers that failed together instead of retrying them in lockstep.
 */

/** The sleep before retry `retry` (1-based), for a `random()` in [0, 1). A whole number of ms. */
export function backoffDelay(retry: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  const cap = Math.min(maxDelayMs, baseDelayMs * 2 ** (retry - 1))
  return Math.floor(random() * cap)
}

/** Resolves after `ms`, or as soon as `signal` aborts (never rejects). Leaves no timer or listener. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}
