/**
 * The six standard policy plugins in the recommended order: audit, cache, retry,
 * timeout-policy, permission-guard, spill (first listed = outermost on each hook it shares).
 * - audit first: it only observes (`tools/result`), so it records the decision the kernel acted
 *   on (a permission deny included) wherever it is listed; first, its line is written before
 *   later observers run. It sees every call, cache hits and retried calls too, with
 *   `meta.cacheHit` / `meta.attempts`.
 * - cache outside retry: what it stores is the retried success, and a hit skips retry,
 *   timeout and the body altogether.
 * - retry outside timeout-policy: every attempt gets its own deadline, so a `TOOL_TIMEOUT` is
 *   retried (the other way round, one deadline would cover all attempts and never be retried).
 *   The policy's own finite `defaultMs` (30 s) applies: no tool can hang a turn.
 * - permission-guard decides in `tools/pre-execute` (and its guard), a stage that is over
 *   before any `tools/execute` handler runs: a denied call never reaches cache, retry, timeout
 *   or the body, wherever it is listed;
 *   its guard keeps a deny final even if an outer plugin answers allow.
 * - spill registers its post-execute with `prepend`, so it is outermost there whatever its
 *   listing; listed last, no earlier `prepend` can wrap it. It measures the content the model
 *   will see, cache hits included (the cache keeps whole results; each hit is previewed anew).
 */
import type { Context, ForkScope } from 'cordis'
import * as audit from '@rein/plugin-audit'
import type { AuditInput } from '@rein/plugin-audit'
import { createCache, type ConfigInput as CacheInput } from '@rein/plugin-cache'
import { createPermissionGuard, type Ask, type PermissionGuardInput } from '@rein/plugin-permission-guard'
import { createRetry, type ConfigInput as RetryInput, type RetryDeps } from '@rein/plugin-retry'
import * as spill from '@rein/plugin-spill'
import type { SpillConfig } from '@rein/plugin-spill'
import * as timeout from '@rein/plugin-timeout-policy'
import type { ConfigInput as TimeoutInput } from '@rein/plugin-timeout-policy'

/** The recommended order, outermost first: the names `ctx.tools.chain(...)` reports. */
export const STANDARD_ORDER = ['audit', 'cache', 'retry', 'timeout-policy', 'permission-guard', 'spill'] as const

export type StandardPluginName = typeof STANDARD_ORDER[number]

/** Each plugin's config (its own defaults fill the rest), plus the seams a host or a test fills. */
export interface StandardStackOptions {
  /** Required: where the audit lines go (`{ file, redact? }`). */
  audit: AuditInput
  cache?: CacheInput
  retry?: RetryInput
  /** Plugin defaults: `defaultMs` 30 s, so no tool without a deadline of its own runs unbounded. */
  timeout?: TimeoutInput
  permissions?: PermissionGuardInput
  spill?: Partial<SpillConfig>
  /** Answers permission `ask`s (a terminal prompt, a test). Without it every ask is denied. */
  ask?: Ask
  /** The cache's clock (default `Date.now`). */
  now?: () => number
  /** Retry's backoff sleep (default: a real timer that ends on abort). */
  sleep?: RetryDeps['sleep']
  /** Retry's jitter source (default `Math.random`). */
  random?: () => number
}

/** One plugin of the stack with the config it is loaded with. */
export interface StackEntry {
  name: StandardPluginName
  plugin: { name: string, inject: string[], Config: (config: any) => unknown, apply: (ctx: Context, config: any) => void }
  config: unknown
}

/** Keeps only the keys whose value is defined, so a plugin's own default is not overwritten by `undefined`. */
function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

/**
 * The six plugins and their configs, in the recommended order. Pure: nothing is loaded.
 * `standardStack` loads exactly this list; a host that wants to wrap or inspect a plugin
 * (a tracer, a test) maps over it and hands the result to `loadStack`.
 */
export function standardPlugins(options: StandardStackOptions): StackEntry[] {
  return [
    { name: 'audit', plugin: audit, config: options.audit },
    { name: 'cache', plugin: createCache(defined({ now: options.now })), config: options.cache ?? {} },
    { name: 'retry', plugin: createRetry(defined({ sleep: options.sleep, random: options.random })), config: options.retry ?? {} },
    { name: 'timeout-policy', plugin: timeout, config: options.timeout ?? {} },
    { name: 'permission-guard', plugin: createPermissionGuard(defined({ ask: options.ask })), config: options.permissions ?? {} },
    { name: 'spill', plugin: spill, config: options.spill ?? {} },
  ]
}

/**
 * Loads the six plugins into `ctx` in the recommended order (each declares `inject: ['tools']`,
 * so it is applied once the kernel is). Returns one fork per plugin, in order;
 * `await ctx.start()` before the first call. Throws on a bad config, before loading anything.
 */
export function standardStack(ctx: Context, options: StandardStackOptions): ForkScope[] {
  return loadStack(ctx, standardPlugins(options))
}

/**
 * Checks every entry's config, then loads the entries in order. A bad config throws naming
 * the plugin and the key, and nothing is loaded: cordis alone would only set that fork's
 * `error` and run the harness without the plugin.
 */
export function loadStack(ctx: Context, entries: readonly StackEntry[]): ForkScope[] {
  for (const { name, plugin, config } of entries) {
    try {
      plugin.Config(config)
    } catch (error) {
      throw new TypeError(`standard stack: the config of "${name}" is invalid: ${(error as Error).message}`)
    }
  }
  return entries.map(({ plugin, config }) => ctx.plugin(plugin, config))
}
