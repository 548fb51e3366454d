/**
 * The configuration of the retry policy, validated by cordis when the plugin is loaded, so a
 * bad value fails `ctx.plugin(...)` with a message naming the key. `retryOn` may not list a
 * code that is never retried (`ABORTED`, `TOOL_DENIED`, ...): that would be a silent no-op.
 */
import { Schema } from 'cordis'
import { MAX_TIMER_MS } from '@rein/kernel'
import { DEFAULT_MIN_OVERLOAD_DELAY_MS, DEFAULT_RETRY_ON, MAX_ATTEMPTS_LIMIT, NEVER_RETRIED } from './codes.js'

export interface Config {
  /** Attempts in all, the first one included. 1 turns retrying off; at most `MAX_ATTEMPTS_LIMIT` (100). */
  maxAttempts: number
  /** The backoff cap of the first retry; it doubles for every further retry. */
  baseDelayMs: number
  /** No backoff sleep is longer than this. */
  maxDelayMs: number
  /** `error.info.code` values that are retried. */
  retryOn: string[]
  /** Also retry the transient HTTP codes (`HTTP_429`, `HTTP_503`, ...; see `TRANSIENT_HTTP_CODES`). */
  retryHttp: boolean
  /**
   * The shortest sleep (ms) before retrying a rate-limit or overload failure (`OVERLOAD_CODES`:
   * `HTTP_429`, `HTTP_503`, `RATE_LIMITED`, `UNAVAILABLE`), above the backoff's draw and
   * `maxDelayMs`. Default 1000; `0` turns the floor off.
   */
  minOverloadDelayMs: number
}

/** What a user may write: every key is optional, the schema fills in the defaults. */
export type ConfigInput = Partial<Config>

const retryOn = Schema.transform(Schema.array(Schema.string()), (codes: string[]) => {
  const never = codes.find((code) => NEVER_RETRIED.has(code))
  if (never !== undefined) {
    throw new Schema.ValidationError(
      `lists "${never}", which is never retried (the call was stopped, refused or is invalid): remove it`,
      { path: ['retryOn'] })
  }
  return codes
})

/** The schema cordis validates the plugin config with at load; fills in the defaults. */
export const Config: Schema<ConfigInput | undefined, Config> = Schema.object({
  maxAttempts: Schema.natural().min(1).max(MAX_ATTEMPTS_LIMIT).default(3)
    .description(`Attempts in all, the first one included; 1 turns retrying off; at most ${MAX_ATTEMPTS_LIMIT}.`),
  baseDelayMs: Schema.natural().max(MAX_TIMER_MS).default(200)
    .description('Backoff cap (ms) of the first retry; doubles for each further retry.'),
  maxDelayMs: Schema.natural().max(MAX_TIMER_MS).default(10_000)
    .description('No backoff sleep (ms) is longer than this.'),
  retryOn: retryOn.default([...DEFAULT_RETRY_ON])
    .description('error.info.code values that are retried.'),
  retryHttp: Schema.boolean().default(true)
    .description('Also retry HTTP_408, HTTP_425, HTTP_429, HTTP_500, HTTP_502, HTTP_503 and HTTP_504.'),
  minOverloadDelayMs: Schema.natural().max(MAX_TIMER_MS).default(DEFAULT_MIN_OVERLOAD_DELAY_MS)
    .description('Shortest sleep (ms) before retrying HTTP_429, HTTP_503, RATE_LIMITED or UNAVAILABLE; 0 turns it off.'),
})
