/**
 * The `tools/execute` handler. It puts a watched signal (deadline or caller abort) on
 * `exec.signal` for the layers inside, and restores `exec.signal` and `exec.progress` in
 * `finally`. Outcomes: the deadline fired first -> `TOOL_TIMEOUT`, whatever the tool returned;
 * the caller aborted first -> the inner result unchanged (the kernel makes a late success
 * `ABORTED`); a tool still running `graceMs` after either -> given up on, `ToolTimeoutAbandoned`.
 */
import {
  ABORTED, MAX_TIMER_MS, Messages, TOOL_TIMEOUT, failure,
  type ExecuteHandler, type ToolDefinition, type ToolExec, type ToolExecutionResult,
} from '@rein/kernel'
import type { Config } from './config.js'
import { DeadlineGroups } from './groups.js'
import { CallWatch, type Cause, type Follower, type Watch } from './watch.js'

/**
 * `error.info.name` of a result returned without waiting any longer for the tool: one of the
 * kernel's `ABANDONED_NAMES`, so retry and cache know the body may still be running.
 */
export const ABANDONED = 'ToolTimeoutAbandoned'

/**
 * The deadline of one call: the config override, else the definition's `timeoutMs`, else
 * `defaultMs`. Only the config's own keys count (a tool named `constructor` does not find
 * `Object.prototype.constructor`), and a value that is not a number means "not set", so the
 * next one applies. Undefined (no deadline) only for a value past what a timer can hold.
 */
export function deadlineFor(config: Config, name: string, definition: ToolDefinition | undefined): number | undefined {
  const override = Object.hasOwn(config.tools, name) ? config.tools[name] : undefined
  const own = definition?.timeoutMs
  const ms = typeof override === 'number' ? override : typeof own === 'number' ? own : config.defaultMs
  return ms <= MAX_TIMER_MS ? ms : undefined
}

/**
 * Builds the handler. `definitionOf` looks a tool up at call time (`ctx.tools.get`). Calls
 * that start together share a watch (`DeadlineGroups`), unless progress restarts deadlines:
 * then each call has its own (`CallWatch`).
 */
export function timeoutHandler(config: Config, definitionOf: (name: string) => ToolDefinition | undefined): ExecuteHandler {
  const groups = new DeadlineGroups(config.graceMs)
  // The last call, held until the next one replaces it: like `DeadlineGroups.last` (measured on
  // the peer bench, docs/performance.md "The retained batch"), else a full GC that finds no
  // call alive makes V8 drop the code it optimized for `TimedCall`.
  let last: TimedCall | undefined
  // Not async: a `then` chain keeps no frame on the heap per call.
  return (exec, next) => {
    const ms = deadlineFor(config, exec.name, definitionOf(exec.name))
    const caller = exec.signal
    const progress = exec.progress
    let watch: Watch
    if (config.resetOnProgress && ms !== undefined) {
      const own = watch = new CallWatch(caller, ms, config.graceMs)
      exec.progress = (info) => {
        own.arm()
        progress(info)
      }
    } else {
      watch = groups.join(caller, ms)
    }
    exec.signal = watch.signal
    let inner: Promise<ToolExecutionResult>
    try {
      inner = next()
    } catch (error) {
      restore(exec, caller, progress, watch)
      return Promise.reject(error)
    }
    last = new TimedCall(exec, caller, progress, watch, ms, inner)
    return last.promise
  }
}

/** On every path: the watch is left, and the caller's signal and progress are back on exec. */
function restore(exec: ToolExec, caller: AbortSignal, progress: ToolExec['progress'], watch: Watch): void {
  watch.leave()
  exec.signal = caller
  exec.progress = progress
}

/**
 * One call from `next()` to its outcome: the inner result, or the cause once the watch gives
 * up; whichever comes first settles `promise` and restores exec, once. The call's reactions are
 * this object's (its two `then` callbacks, and it is its own link in the watch's list), not a
 * closure per step: one promise and one reaction per call, and few objects.
 */
class TimedCall implements Follower {
  readonly promise: Promise<ToolExecutionResult>
  private resolve!: (result: ToolExecutionResult) => void
  private reject!: (error: unknown) => void
  private over = false
  before?: Follower
  after?: Follower

  constructor(
    private readonly exec: ToolExec, private readonly caller: AbortSignal, private readonly progress: ToolExec['progress'],
    private readonly watch: Watch, private readonly ms: number | undefined, inner: Promise<ToolExecutionResult>,
  ) {
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
    inner.then(this.answered, this.failed)
    watch.follow(this)
  }

  /** The watch gave up first: the call ends without its inner result. */
  gaveUp(cause: Cause): void {
    if (this.first()) this.resolve(giveUp(cause, this.ms))
  }

  private readonly answered = (result: ToolExecutionResult) => {
    const cause = this.watch.cause
    if (this.first()) this.resolve(cause === 'deadline' ? failure(TOOL_TIMEOUT, Messages.timedOut(this.ms!)) : result)
  }

  private readonly failed = (error: unknown) => {
    if (this.first()) this.reject(error)
  }

  /** True for the first outcome only, which restores exec. */
  private first(): boolean {
    if (this.over) return false
    this.over = true
    this.watch.unfollow(this)
    restore(this.exec, this.caller, this.progress, this.watch)
    return true
  }
}

/** The result of a call the policy stopped waiting for. */
function giveUp(cause: Cause, ms: number | undefined): ToolExecutionResult {
  return cause === 'deadline'
    ? failure(TOOL_TIMEOUT, Messages.timedOut(ms!), ABANDONED)
    : failure(ABORTED, Messages.aborted, ABANDONED)
}
