/**
 * What a batch is given and what it ends with: the contract between the agent loop and the
 * scheduler (`scheduler.ts`), read when a batch starts.
 */
import type { SessionRef, ToolExecutionResult } from '@rein/kernel'
import type { ApprovalBook, ParkedCall } from './approval-book.js'
import type { AgentEvents } from './events.js'
import type { Continuation } from './parked-turn.js'
import type { NewSessionEntry } from './session.js'
import type { BatchTools } from './tool-access.js'

/** What a batch needs from the agent. */
export interface BatchEnv {
  tools: BatchTools
  events: AgentEvents
  agent: string
  turn: number
  maxParallel: number
  signal?: AbortSignal
  /**
   * Appends entries durably (`tool/call`, with `at`, before a call runs; `tool/result` in model
   * order): resolves once durable; undefined when durable already (the memory store, `SessionLog.add`).
   * `owned`: the scheduler built the entry for this append alone, every value deep-frozen.
   */
  log: { add(entry: NewSessionEntry, owned?: boolean): Promise<unknown> | undefined }
  /** The session every call belongs to (`exec.session`: its id and the plugins' per-session state). */
  session?: SessionRef
  /** The id the model gave each call renamed for repeating an earlier call's id (`renameRepeatedIds`), by index. */
  givenIds?: ReadonlyMap<number, string>
  /**
   * Called once every call is final and every result's append is issued, before the results are
   * durable: what it appends goes after them, in the same write of a grouping store. Not called
   * after a scheduler failure or when a call parked.
   */
  close?: (results: readonly ToolExecutionResult[]) => void
  /** The session's approvals: what a call that parks records. Without it, nothing parks (the kernel denies). */
  approvals?: ApprovalBook
  /** Continuing a batch that parked: the results it has, and the requests that expired. */
  resume?: Continuation
}

/**
 * `committed`: every call has its result, and every result's append is issued in model order;
 * `durable` resolves once the store acknowledged them all, or rejects with the error that stopped
 * it (the agent asks the model meanwhile: docs/ARCHITECTURE.md, "Logging, abort, failure and
 * crashes"); absent when they are acknowledged already. `parked`: some calls wait for approval (`parked`, in model order; their requests
 * are in the log), the calls behind them wait too, the others' results are in the log.
 * `failed`: the scheduler stopped; see `error`.
 */
export type BatchOutcome =
  | { kind: 'committed', results: readonly ToolExecutionResult[], durable?: Promise<void> }
  | { kind: 'parked', parked: readonly ParkedCall[] }
  | { kind: 'failed', error: Error }
