/**
 * `@rein/plugin-budget`: per-session limits on `tools/execute` — calls, calls of one tool, time
 * inside tools/execute, cost — and a loop breaker for the same call made again and again.
 * Counts live in the session's plugin state (`exec.session.state`), so a resume in another
 * process continues them and another session starts from zero. Codes: `LOOP_DETECTED`,
 * `BUDGET_EXCEEDED` (with `onExceeded: end-run`, the result also ends the run).
 */
import type { Context } from 'cordis'
import { budgetHooks } from './budget.js'
import { Config } from './config.js'

export { Config }
export type { ConfigInput, OnExceeded } from './config.js'
export { budgetHandler, reconciledCounter } from './budget.js'
export { readCounts, STATE_KEY, STATE_PLUGIN, type Counts } from './counts.js'
export { compileGlob, GlobError } from './glob.js'

/** The cordis plugin name. */
export const name = 'budget'

/** Applied after the kernel, so its hook lands in the kernel's chain. */
export const inject = ['tools']

/**
 * Registers one `tools/execute` handler (list it outside cache and retry, see the README) and
 * one `tools/result` observer that counts a call committed by reconcile after a crash, and the
 * time of a call the kernel gave up on.
 */
export function apply(ctx: Context, config: Config) {
  const hooks = budgetHooks(config)
  ctx.on('tools/execute', hooks.execute)
  ctx.on('tools/result', hooks.result)
}
