/**
 * What progress output is told, and which kind to use: on a terminal the live view redraws
 * the rows of the batch in flight; anywhere else the plain view prints one line per event,
 * so logs and pipes read top to bottom. Both get the same calls, in the same order.
 */
import type { ToolExecutionResult } from '@rein/kernel'
import type { Io } from '../io.js'
import { PlainView } from './plain-view.js'
import type { TurnTiming } from './stats.js'
import { createStyle, wantsColor } from './style.js'
import { TtyView } from './tty-view.js'

/** A call in the batch in flight. `result` and `durationMs` arrive when it is final. */
export interface LiveCall {
  turn: number
  index: number
  id: string
  name: string
  arguments: unknown
  /** How the scheduler may run it (the kernel's classification of the arguments it ran with). */
  mode: 'parallel' | 'exclusive'
  /** Monotonic milliseconds when it started. */
  startedAt: number
  result?: ToolExecutionResult
  durationMs?: number
}

/** A batch that is over. */
export interface TurnReport extends TurnTiming {
  turn: number
  outcome: string
  calls: LiveCall[]
}

/** Receives progress. Calls arrive in the order they happen; `close` is called once at the end. */
export interface ProgressView {
  /** A line of narration between batches (the model's text). */
  note(text: string): void
  started(call: LiveCall): void
  ended(call: LiveCall): void
  turnEnded(report: TurnReport): void
  /** Model text streaming in. */
  text(delta: string): void
  /** A line about the run itself (interrupted, waiting for calls); shown under the rows in flight. */
  status(text: string): void
  /** The run's final answer. */
  answer(text: string): void
  /**
   * Lends the screen to someone else (a question): stops redrawing and erases the rows in
   * flight. Calls still arrive and are kept; `resume` draws the rows again below what was written.
   */
  pause(): void
  resume(): void
  close(): void
}

/** The live view on a terminal, else the plain one. */
export function createView(io: Io): ProgressView {
  const style = createStyle(wantsColor(io.isTTY, io.env))
  return io.isTTY ? new TtyView(io.stdout, style) : new PlainView(io.stdout, style)
}
