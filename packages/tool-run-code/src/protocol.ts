/**
 * The messages between the host (main thread) and a sandbox thread. Only strings and numbers
 * cross: arguments and values travel as JSON text, parsed by whoever receives them, so no
 * object made by the code ever reaches the host. One thread runs one run at a time.
 */

/** The limits of one run, fixed by the plugin's config. */
export interface Limits {
  memoryLimitBytes: number
  maxStackBytes: number
  /** Wall-clock time (`Date.now()`) after which the code is interrupted. */
  deadline: number
}

/** What makes a run repeatable (DESIGN.md §7.2): the code's `Date` reads `clock`, its `Math.random` is seeded with `seed`. */
export interface Fixed {
  /** ms since the epoch: what `Date.now()` and `new Date()` give throughout the run. */
  clock: number
  /** Four 32-bit words. */
  seed: number[]
}

/** What the host sends. */
export type ToSandbox =
  /** Start a run: `code` is the body of an async function; `tools` are the names `tools.<name>` offers. */
  | { type: 'run', code: string, tools: string[], limits: Limits, fixed: Fixed }
  /** The answer to sub-call `id`: `{"ok":true,"value":...}` or `{"ok":false,"text":...,"code":...}` as JSON text. */
  | { type: 'reply', id: number, envelope: string }
  /** End the current run now (its stop flag is already set). */
  | { type: 'stop' }

/** What a sandbox thread sends. */
export type FromSandbox =
  /** The thread has loaded QuickJS and takes runs. */
  | { type: 'ready' }
  /** The code called `tools.<name>(args)`; `args` is JSON text. */
  | { type: 'call', id: number, name: string, args: string }
  /** The run is over. `healthy`: the thread cleaned up and may take another run. */
  | { type: 'done', outcome: Outcome, healthy: boolean }

/** How a run ended, as the sandbox saw it. */
export type Outcome =
  /** The function returned; `json` is its value as JSON text. */
  | { kind: 'value', json: string }
  /** The code threw (or did not compile); `message` is the error with its stack. */
  | { kind: 'threw', message: string }
  /** The return value is not JSON; `message` says where. */
  | { kind: 'output', message: string }
  /** The code ran out of memory. */
  | { kind: 'memory', message: string }
  /** The interrupt handler stopped the code: the stop flag or the deadline. */
  | { kind: 'interrupted' }
  /** The code awaits something that can never settle (no sub-call is pending). */
  | { kind: 'stalled' }
  /** QuickJS or the thread failed (a trap, the host stack); `message` says how. */
  | { kind: 'crashed', message: string }
