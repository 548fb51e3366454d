/**
 * The `tools/execute` handler. For a tool marked `idempotent` it runs the inner layers up to
 * `maxAttempts` times while the result's code is retryable, sleeping with full-jitter backoff
 * in between; each attempt sees a fresh `exec.signal` that follows the caller's, and the caller's
 * is restored in `finally`. An abort ends the sleep at once and returns the last result.
 * A rate-limit or overload failure (`OVERLOAD_CODES`) is never retried sooner than
 * `minOverloadDelayMs`. Other tools pass straight through. `exec.meta.attempts` counts the attempts made.
 */
import { bodyMayStillRun, codeOf, type ExecuteHandler, type ToolDefinition, type ToolExec, type ToolExecutionResult } from '@rein/kernel'
import { abortableSleep, backoffDelay } from './backoff.js'
import { NEVER_RETRIED, OVERLOAD_CODES, TRANSIENT_HTTP_CODES } from './codes.js'
import type { Config } from './config.js'
import { childSignal } from './signal.js'

/** What a retry waits with; injectable so that tests need no clock. */
export interface RetryDeps {
  /** Waits `ms`; must resolve as soon as `signal` aborts. Default: a `setTimeout` sleep. */
  sleep(ms: number, signal: AbortSignal): Promise<void>
  /** A number in [0, 1) for the jitter. Default: `Math.random`. */
  random(): number
}

/** Real timers and `Math.random`: what the module's own plugin uses. */
export const defaultDeps: RetryDeps = { sleep: abortableSleep, random: Math.random }

/**
 * Whether `result` is a failure this config retries. Never one whose body was given up on
 * and may still be running (the kernel's `bodyMayStillRun`): a retry would run a second copy alongside it.
 */
export function isRetryable(result: ToolExecutionResult, config: Pick<Config, 'retryOn' | 'retryHttp'>): boolean {
  const code = codeOf(result)
  if (code === undefined || NEVER_RETRIED.has(code)) return false
  if (bodyMayStillRun(result)) return false
  return config.retryOn.includes(code) || (config.retryHttp && TRANSIENT_HTTP_CODES.has(code))
}

/**
 * The sleep after failed attempt `attempt`: the full-jitter backoff, raised to
 * `minOverloadDelayMs` when the service said it is rate-limiting or overloaded.
 */
export function delayBefore(attempt: number, result: ToolExecutionResult, config: Pick<Config, 'baseDelayMs' | 'maxDelayMs' | 'minOverloadDelayMs'>, random: () => number): number {
  const delay = backoffDelay(attempt, config.baseDelayMs, config.maxDelayMs, random)
  const code = codeOf(result)
  return code !== undefined && OVERLOAD_CODES.has(code) ? Math.max(delay, config.minOverloadDelayMs ?? 0) : delay
}

/** Builds the handler. `definitionOf` looks a tool up at call time (`ctx.tools.get`). */
export function retryHandler(config: Config, deps: RetryDeps, definitionOf: (name: string) => ToolDefinition | undefined): ExecuteHandler {
  const retrying = async (exec: ToolExec, next: () => Promise<ToolExecutionResult>): Promise<ToolExecutionResult> => {
    const caller = exec.signal
    try {
      for (let attempt = 1; ; attempt++) {
        exec.meta.attempts = attempt
        const child = childSignal(caller)
        exec.signal = child.signal
        let result: ToolExecutionResult
        try {
          result = await next()
        } finally {
          child.release()
          exec.signal = caller
        }
        if (attempt >= config.maxAttempts || caller.aborted || !isRetryable(result, config)) return result
        await deps.sleep(delayBefore(attempt, result, config, deps.random), caller)
        if (caller.aborted) return result
      }
    } finally {
      exec.signal = caller
    }
  }
  // Other tools pass straight through, without an async frame of their own.
  return (exec, next) => definitionOf(exec.name)?.idempotent === true ? retrying(exec, next) : next()
}
