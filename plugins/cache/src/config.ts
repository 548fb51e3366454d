/**
 * The configuration of the cache, validated by cordis when the plugin is loaded, so a bad
 * value fails `ctx.plugin(...)` with a message naming the key. `ttlMs: 0` or `maxEntries: 0`
 * keeps nothing: identical calls in flight at the same time are still run once.
 */
import { Schema } from 'cordis'

/** When stored results are dropped: on every call that may write, or only by TTL and LRU. */
export type InvalidateOn = 'write' | 'never'

export interface Config {
  /** How long (ms) a stored success is served, counted from when it was stored. */
  ttlMs: number
  /** At most this many results are kept; the least recently used goes first. */
  maxEntries: number
  /** `'write'`: a call of a tool not marked idempotent clears the cache; `'never'`: only TTL and LRU. */
  invalidateOn: InvalidateOn
  /** Tools not marked idempotent that change nothing either: their calls clear nothing. */
  pure: string[]
  /**
   * `false` (default): results are kept per session (the call's `exec.session.id` is part of
   * the key; calls without a session share with each other). `true`: every idempotent tool's
   * results are shared by all sessions; a list: only those tools' results are.
   */
  shareAcrossSessions: boolean | string[]
}

/** What a user may write: every key is optional, the schema fills in the defaults. */
export type ConfigInput = Partial<Config>

/** The schema cordis validates the plugin config with at load; fills in the defaults. */
export const Config: Schema<ConfigInput | undefined, Config> = Schema.object({
  ttlMs: Schema.natural().default(300_000)
    .description('How long (ms) a stored success is served, from when it was stored.'),
  maxEntries: Schema.natural().default(1000)
    .description('At most this many results are kept; the least recently used is evicted first.'),
  invalidateOn: Schema.union([Schema.const('write' as const), Schema.const('never' as const)]).default('write')
    .description("'write': every call of a tool not marked idempotent clears the cache; 'never': only TTL and LRU drop entries."),
  pure: Schema.array(String).default([])
    .description('Names of tools not marked idempotent that change nothing: their calls do not clear the cache.'),
  shareAcrossSessions: Schema.union([Schema.boolean(), Schema.array(String)]).default(false)
    .description('false: results are kept per session; true (or a list of tool names): those results are shared by every session, for tools whose answer depends only on their arguments.'),
})
