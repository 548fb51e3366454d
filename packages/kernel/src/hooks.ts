/**
 * The hook contract: the five names a plugin registers with `ctx.on(...)`, what each one may
 * do, and the types the compiler holds handlers to. An onion handler returns its answer or a
 * promise of it; one with nothing to change returns the promise `next()` gave it, as it is. The kernel takes these listeners into its
 * own chains (see `chains.ts`), so registration order is onion order: the first registered is
 * the outermost, and `ctx.on(name, handler, { prepend: true })` makes a handler outermost.
 */
import type {
  PostToolDecision, PreToolDecision, ToolExec, ToolExecutionResult,
} from '@rein/types'

/**
 * `tools/pre-execute` — onion around the decision.
 * Runs after: argument validation (an unknown tool or invalid arguments never gets here).
 * Runs before: the guards, then `tools/execute`.
 * May: return allow, deny (with a reason) or ask; short-circuit by not calling `next()`;
 * rewrite the arguments with `{ kind: 'allow', arguments }` (checked against the schema, then every guard).
 * Innermost default: allow. A deny here is final; an ask goes to `ctx.approval`.
 * Never runs concurrently with itself; calls arrive in model order.
 */
export type PreExecuteHandler = (exec: ToolExec, next: () => Promise<PreToolDecision>) => PreToolDecision | Promise<PreToolDecision>

/**
 * `tools/execute` — onion around the tool body (timeout, retry, cache, metrics wrap here).
 * Runs after: pre-execute allowed and every guard passed, and the caller has not aborted.
 * Runs before: `tools/post-execute`.
 * May: call `next()` zero or more times (retry) and return any result (cache); replace
 * `exec.signal` / `exec.progress` for the layers inside it, restoring them in `finally`.
 * Each `next()` hands the inner layers their own copy of `exec`, taken when it is called
 * (so swap before calling `next()`; `exec.meta` stays one object for the call): a body given
 * up on never sees a later attempt's signal. The only stage that runs in parallel across calls.
 */
export type ExecuteHandler = (exec: ToolExec, next: () => Promise<ToolExecutionResult>) => ToolExecutionResult | Promise<ToolExecutionResult>

/**
 * `tools/post-execute` — onion around the acceptance of a result.
 * Runs after: `tools/execute`, or any non-final failure (unknown tool, invalid arguments,
 * deny, body error, timeout, abort, dependency and plan failures).
 * Runs before: content finalization and `tools/result`.
 * May: accept (optionally replacing `content`/`value`, adding `additionalContexts`) or block
 * with feedback. The outer handler sees the inner decision as the value of `next()`.
 * Innermost default: accept unchanged. Never runs concurrently with itself.
 */
export type PostExecuteHandler = (
  exec: ToolExec, result: ToolExecutionResult, next: () => Promise<PostToolDecision>,
) => PostToolDecision | Promise<PostToolDecision>

/**
 * `tools/result` — observe the frozen, authoritative outcome of a call.
 * Runs after: everything else, once per call, including final failures.
 * May: nothing. A throw is contained and logged; it never skips the other observers.
 */
export type ResultObserver = (exec: ToolExec, result: ToolExecutionResult) => void

/**
 * `tools/hand-off` — hold a finished call's result until a record of it is safe.
 * Runs after: the `tools/result` observers, once per call, with the same frozen result.
 * Runs before: the caller gets the result.
 * May: return a promise; the caller gets the result once every promise returned for it has
 * settled. A throw or a rejection is contained and logged, and the result goes on unchanged:
 * a hold can delay a result, never change or withhold it. The promise must settle (the kernel
 * does not time it): it is for records that must be durable before anyone sees the result,
 * such as the audit plugin's lines, written once per group of calls. Anything else observes.
 */
export type HandOffHandler = (exec: ToolExec, result: ToolExecutionResult) => PromiseLike<unknown> | void

/** The onion hooks, by name. */
export interface OnionHooks {
  'tools/pre-execute': PreExecuteHandler
  'tools/execute': ExecuteHandler
  'tools/post-execute': PostExecuteHandler
}

/**
 * How the kernel runs each hook, as data (one row per hook; `Record<HookName, ...>` keeps the
 * table complete): an onion's `next()` re-entry rule and what its innermost layer answers
 * when every handler calls `next()`; an observer that may only watch; or a hold that may
 * only delay the hand-off of a result.
 */
export const HOOKS = {
  'tools/pre-execute': { kind: 'onion', reentry: 'once', innermost: 'allow' },
  'tools/execute': { kind: 'onion', reentry: 'sequential', innermost: 'the tool body' },
  'tools/post-execute': { kind: 'onion', reentry: 'once', innermost: 'accept' },
  'tools/result': { kind: 'observer' },
  'tools/hand-off': { kind: 'hold' },
} as const satisfies Record<keyof OnionHooks | 'tools/result' | 'tools/hand-off', HookRule>

/** One row of `HOOKS`. */
export type HookRule =
  | { readonly kind: 'onion', readonly reentry: 'once' | 'sequential', readonly innermost: string }
  | { readonly kind: 'observer' }
  | { readonly kind: 'hold' }

export type HookName = keyof typeof HOOKS

/** The pipeline stage names used in `PIPELINE_FAILED` results' `error.info.name`. */
export type Stage = keyof OnionHooks | 'guard' | 'approval' | 'tools/result' | 'tools/hand-off' | 'startup' | 'kernel'
