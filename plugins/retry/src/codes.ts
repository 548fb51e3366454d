/**
 * Which failure codes a retry may repeat. Two lists live here and nowhere else: codes that are
 * never retried whatever the config says (repeating the same call cannot change them), and
 * the HTTP statuses treated as transient when a tool reports them as `HTTP_<status>`.
 */
import { ABORTED, ABORTED_BEFORE_DISPATCH, INVALID_ARGS, TOOL_DENIED, UNKNOWN_TOOL } from '@rein/kernel'

/** The retry policy's default `retryOn` (contract). */
export const DEFAULT_RETRY_ON: readonly string[] = Object.freeze([
  'TOOL_TIMEOUT', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'RATE_LIMITED', 'UNAVAILABLE',
])

/** Never retried: the caller stopped, the call was refused, or the call itself is wrong. */
export const NEVER_RETRIED: ReadonlySet<string> = new Set([
  ABORTED, ABORTED_BEFORE_DISPATCH, TOOL_DENIED, INVALID_ARGS, UNKNOWN_TOOL,
])

/**
 * Retried when `retryHttp` is on (the default). A tool reports an HTTP status by throwing an
 * error whose `code` is `HTTP_<status>`: request timeout, too early, too many requests, and
 * the server-side statuses that mean "try again" (500, 502, 503, 504). 501 and 505 are not:
 * they never change on a repeat.
 */
export const TRANSIENT_HTTP_CODES: ReadonlySet<string> = new Set([
  'HTTP_408', 'HTTP_425', 'HTTP_429', 'HTTP_500', 'HTTP_502', 'HTTP_503', 'HTTP_504',
])

/**
 * The service said "too many requests" or "overloaded": before retrying one of these the
 * sleep is at least `minOverloadDelayMs`, whatever the backoff draws, so a config with tiny
 * delays cannot hammer a service that asked for less traffic.
 */
export const OVERLOAD_CODES: ReadonlySet<string> = new Set(['HTTP_429', 'HTTP_503', 'RATE_LIMITED', 'UNAVAILABLE'])

/** The most `maxAttempts` may be: a retry loop is for transient failures, not a poll. */
export const MAX_ATTEMPTS_LIMIT = 100

/** The default `minOverloadDelayMs`. */
export const DEFAULT_MIN_OVERLOAD_DELAY_MS = 1000
