/**
 * A run's end as the tool's value or as a coded error. A host stop decides first, whatever the
 * sandbox reported meanwhile (unless the code had already returned): an abort rethrows the
 * signal's reason (the kernel's `ABORTED`; `TOOL_TIMEOUT` when the timeout plugin's deadline
 * caused it), the run's own deadline is `TOOL_TIMEOUT`. Every message says what to do next.
 */
import { INVALID_TOOL_OUTPUT, TOOL_TIMEOUT, type Json } from '@rein/kernel'
import { CODE_FAILED, CODE_MEMORY_LIMIT, RunCodeError, SANDBOX_FAILED } from './codes.js'
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
    throw new RunCodeError(TOOL_TIMEOUT,
      `the code ran longer than ${limits.maxRunMs}ms and was stopped; do less per run, or check for a loop that never ends`,
      'RunCodeTimeLimit')
  }
  switch (outcome.kind) {
    case 'threw':
      throw new RunCodeError(CODE_FAILED, `the code threw ${outcome.message}`)
    case 'output':
      throw new RunCodeError(INVALID_TOOL_OUTPUT, `the code's return value cannot be returned as JSON: ${outcome.message}`)
    case 'memory':
      throw new RunCodeError(CODE_MEMORY_LIMIT,
        `the code ran out of memory (its limit is ${mebibytes(limits.memoryLimitBytes)}); hold less data at once and return a smaller value`)
    case 'stalled':
      throw new RunCodeError(CODE_FAILED,
        'the code awaits a promise that nothing can settle: the sandbox has no timers or events, only tools.<name>() calls')
    case 'crashed':
      throw new RunCodeError(SANDBOX_FAILED,
        `the sandbox failed (${outcome.message}); it was replaced, and the code may be retried with less recursion or data`)
    default: {
      const unknown: never = outcome
      throw new RunCodeError(SANDBOX_FAILED, `the sandbox ended in an unknown way: ${JSON.stringify(unknown)}`)
    }
  }
}

function mebibytes(bytes: number): string {
  const mib = bytes / (1024 * 1024)
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`
}
