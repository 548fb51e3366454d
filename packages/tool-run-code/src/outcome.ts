/**
 * A run's end as the tool's value or as a coded error. A host stop decides first, whatever the
 * sandbox reported meanwhile (unless the code had already returned): an abort rethrows the
 * signal's reason (the kernel's `ABORTED`; `TOOL_TIMEOUT` when the timeout plugin's deadline
 * caused it), the run's own deadline is `TOOL_TIMEOUT`. Every message says what to do next.
 */
import { CodedError, INVALID_TOOL_OUTPUT, TOOL_TIMEOUT, type Json } from '@rein/kernel'
import { CODE_FAILED, CODE_MEMORY_LIMIT, SANDBOX_FAILED } from './codes.js'
import type { Ended } from './run.js'

/** The limits named in the messages. */
export interface Named {
  maxRunMs: number
  memoryLimitBytes: number
}

/** The value of a run that returned; throws the run's error otherwise. */
export function valueOf(ended: Ended, signal: AbortSignal, limits: Named): Json {
  const { outcome, stoppedBy } = ended
  if (outcome.kind === 'value') return JSON.parse(outcome.json) as Json
  if (stoppedBy === 'abort') throw signal.reason
  if (stoppedBy === 'deadline' || outcome.kind === 'interrupted') {
    const error = new CodedError(
      `the code ran longer than ${limits.maxRunMs}ms and was stopped; do less per run, or check for a loop that never ends`, TOOL_TIMEOUT)
    // The result's `info.name`: the run's own limit stopped it, not a plugin's deadline.
    error.name = 'RunCodeTimeLimit'
    throw error
  }
  switch (outcome.kind) {
    case 'threw':
      throw new CodedError(`the code threw ${outcome.message}`, CODE_FAILED)
    case 'output':
      throw new CodedError(`the code's return value cannot be returned as JSON: ${outcome.message}`, INVALID_TOOL_OUTPUT)
    case 'memory':
      throw new CodedError(
        `the code ran out of memory (its limit is ${mebibytes(limits.memoryLimitBytes)}); hold less data at once and return a smaller value`,
        CODE_MEMORY_LIMIT)
    case 'stalled':
      throw new CodedError(
        'the code awaits a promise that nothing can settle: the sandbox has no timers or events, only tools.<name>() calls', CODE_FAILED)
    case 'crashed':
      throw new CodedError(
        `the sandbox failed (${outcome.message}); it was replaced, and the code may be retried with less recursion or data`, SANDBOX_FAILED)
    default: {
      const unknown: never = outcome
      throw new CodedError(`the sandbox ended in an unknown way: ${JSON.stringify(unknown)}`, SANDBOX_FAILED)
    }
  }
}

function mebibytes(bytes: number): string {
  const mib = bytes / (1024 * 1024)
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`
}
