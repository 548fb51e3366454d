/**
 * `@rein/plugin-cache`: reuses successes of `idempotent` tools on `tools/execute`, keyed by
 * tool name + canonical JSON of the arguments, with a TTL and an LRU bound. Guarantees: a
 * tool not marked idempotent is never cached; a failure is never stored; identical calls in
 * flight together run the body once; one caller's abort never becomes another caller's result;
 * with `invalidateOn: 'write'`, no result is served or stored across a call that may write.
 */
import type { Context } from 'cordis'
import { serviceTarget } from '@rein/cordis-internals'
import { Config } from './config.js'
import { cacheHandler, type CacheDeps } from './cache.js'

export { Config }
export type { ConfigInput, InvalidateOn } from './config.js'
export { cacheHandler, type CacheDeps, type CacheHandler } from './cache.js'
export { cacheKey, canonicalJson } from './key.js'
export { TtlLru } from './store.js'
export { Writes } from './writes.js'

/** The cordis plugin name. */
export const name = 'cache'

/** Applied after the kernel, so its hook lands in the kernel's chain. */
export const inject = ['tools']

/** A cache plugin with its own clock (tests inject one). The module itself is `createCache()` on `Date.now`. */
export function createCache(deps: Partial<CacheDeps> = {}) {
  const resolved: CacheDeps = { now: deps.now ?? (() => Date.now()) }
  return {
    name,
    inject,
    Config,
    /** Registers one `tools/execute` handler with a store of its own; list it outside retry. */
    apply(ctx: Context, config: Config) {
      // Taken once, from the service object itself: every access through ctx costs tens of
      // microseconds (cordis' tracing proxies), and a member read through it is a method proxy
      // that copies its arguments per call. The plugin restarts if the service is replaced.
      const definitionOf = serviceTarget(ctx.tools).get
      const handler = cacheHandler(config, resolved, definitionOf)
      ctx.on('tools/execute', handler)
      ctx.on('dispose', () => handler.dispose())
    },
  }
}

/**
 * Runs when the plugin is loaded: registers one `tools/execute` handler whose store lives as
 * long as the plugin. List it outside retry, so that a retried success is what gets stored.
 */
export const apply = createCache().apply
