/**
 * The result codes `run_code` adds to the kernel's catalogue; its body throws them as the
 * kernel's `CodedError`. A deadline reuses the kernel's `TOOL_TIMEOUT` and a return value that
 * is not JSON its `INVALID_TOOL_OUTPUT`, so a policy that matches those codes needs no new cases.
 */

/** The code threw an exception it did not catch (a syntax error included). */
export const CODE_FAILED = 'CODE_FAILED'
/** The code needed more memory than `memoryLimitBytes`. */
export const CODE_MEMORY_LIMIT = 'CODE_MEMORY_LIMIT'
/** The sandbox thread itself failed (a crash, not the code's exception); a fresh one is used next time. */
export const SANDBOX_FAILED = 'SANDBOX_FAILED'
/** A `tools.<name>(...)` call named a tool that `run_code` may not call. */
export const NOT_CALLABLE = 'NOT_CALLABLE'
/** The code made more tool calls than `maxCalls` in one run. */
export const TOO_MANY_CALLS = 'TOO_MANY_CALLS'
/**
 * Run again after an approval (DESIGN.md §7.2), the code asked something other than what it
 * asked the first time at the same point (another tool or other arguments for a call that already
 * has a result), or ended without asking it; nothing further ran.
 */
export const RUN_CODE_DIVERGED = 'RUN_CODE_DIVERGED'
