/**
 * `@rein/plugin-retry`: repeats transient failures of `idempotent` tools on `tools/execute`,
 * with full-jitter exponential backoff. Guarantees: a tool not marked idempotent runs exactly
 * once; `ABORTED`, `TOOL_DENIED` and `INVALID_ARGS` are never retried; an abort ends the
 * backoff at once; `exec.signal` is restored on every path; `exec.meta.attempts` is recorded.
 */
import type { Context } from 'cordis'
import { serviceTarget } from '@rein/cordis-internals'
import { Config } from './config.js'
import { defaultDeps, retryHandler, type RetryDeps } from './retry.js'

export { Config }
export type { ConfigInput } from './config.js'
export { DEFAULT_MIN_OVERLOAD_DELAY_MS, DEFAULT_RETRY_ON, MAX_ATTEMPTS_LIMIT, NEVER_RETRIED, OVERLOAD_CODES, TRANSIENT_HTTP_CODES } from './codes.js'
export { abortableSleep, backoffDelay } from './backoff.js'
export { childSignal, type ChildSignal } from './signal.js'
export { delayBefore, isRetryable, retryHandler, type RetryDeps } from './retry.js'

/** The cordis plugin name. */
export const name = 'retry'

/** Applied after the kernel, so its hook lands in the kernel's chain. */
export const inject = ['tools']

/**
 * A retry plugin with its own sleep and randomness (tests inject both). Same name, config
 * and hook as the module itself, which is `createRetry()` with real timers.
 */
export function createRetry(deps: Partial<RetryDeps> = {}) {
  const resolved: RetryDeps = { ...defaultDeps, ...deps }
  return {
    name,
    inject,
    Config,
    /** Registers one `tools/execute` handler; list it outside timeout-policy, inside cache. */
    apply(ctx: Context, config: Config) {
      // Taken once, from the service object itself: every access through ctx costs tens of
      // microseconds (cordis' tracing proxies), and a member read through it is a method proxy
      // that copies its arguments per call. The plugin restarts if the service is replaced.
      const definitionOf = serviceTarget(ctx.tools).get
      ctx.on('tools/execute', retryHandler(config, resolved, definitionOf))
    },
  }
}

/**
 * Runs when the plugin is loaded: registers one `tools/execute` handler with real timers.
 * List it inside cache (so a retried success is cached) and outside timeout-policy (so every
 * attempt gets its own deadline).
 */
export const apply = createRetry().apply
