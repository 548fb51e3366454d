/**
 * `@rein/plugin-timeout-policy`: a deadline per tool call on `tools/execute`. Cooperative first
 * (the tool's `exec.signal` aborts), then, `graceMs` later, it stops waiting. Every call has a
 * finite deadline by default (`DEFAULT_TIMEOUT_MS`), so no tool hangs a turn. Guarantees:
 * exactly one outcome per call, `exec.signal`/`exec.progress` restored on every path, and no
 * timer or listener left behind once a call returns.
 */
import type { Context } from 'cordis'
import { serviceTarget } from '@rein/cordis-internals'
import { Config, DEFAULT_TIMEOUT_MS } from './config.js'
import { timeoutHandler } from './policy.js'

export { Config, DEFAULT_TIMEOUT_MS }
export type { ConfigInput } from './config.js'
export { ABANDONED, deadlineFor, timeoutHandler } from './policy.js'
export { CallWatch, type Cause, type Watch } from './watch.js'
export { DeadlineGroups } from './groups.js'

/** The cordis plugin name. */
export const name = 'timeout-policy'

/** Applied after the kernel, so its hook lands in the kernel's chain. */
export const inject = ['tools']

/**
 * Runs when the plugin is loaded: registers one `tools/execute` handler (in registration
 * order; list it inside retry so that every attempt gets its own deadline).
 */
export function apply(ctx: Context, config: Config) {
  // Taken once, from the service object itself: every access through ctx costs tens of
  // microseconds (cordis' tracing proxies), and a member read through it is a method proxy
  // that copies its arguments per call. The plugin restarts if the service is replaced.
  const definitionOf = serviceTarget(ctx.tools).get
  ctx.on('tools/execute', timeoutHandler(config, definitionOf))
}
