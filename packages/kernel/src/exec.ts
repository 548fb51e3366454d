/**
 * The `exec` object of one call, and the kernel's private record of that call. Every hook
 * and the body see an `exec`; `tools/execute` layers each get their own view of it (their
 * own signal and progress), while the facts (`meta`) and the kernel's record stay one per
 * call. Building an exec never throws, whatever the caller's `call` object is.
 */
import { readSafely } from './hostile.js'
import type { RegisteredTool } from './registry.js'
import type { ExecuteOptions, ProgressInfo, StageCallbacks, ToolCall, ToolExec, ToolExecutionResult } from './types.js'

/** What the kernel knows about one call while it runs; shared by every view of its exec. */
export interface CallRecord {
  /** The registered tool, once the call got past the unknown-tool check. */
  tool?: RegisteredTool
  /** Whether the body was entered (decides ABORTED vs ABORTED_BEFORE_DISPATCH when abandoned). */
  bodyStarted: boolean
  /** The latest outcome the pipeline reached (what post-execute was given). */
  outcome?: ToolExecutionResult
  /** The one final result, once there is one: a late second one is dropped. */
  final?: ToolExecutionResult
  /** The caller's stage callbacks. */
  stages?: StageCallbacks
}

export const CALL = Symbol('rein.call')

/** An exec as the kernel holds it. */
export type Exec = ToolExec & { [CALL]: CallRecord }

const noProgress = () => {}

/** The exec of one call. `args` is the frozen argument snapshot (or `{}` when there is none). */
export function makeExec(call: ToolCall, args: Readonly<Record<string, unknown>>, options: ExecuteOptions): Exec {
  const onProgress = options.onProgress
  let signal = options.signal
  return {
    id: readSafely(call, 'id') as string,
    name: readSafely(call, 'name') as string,
    arguments: args,
    // A caller without a signal gets one only if something asks for it: an AbortController
    // costs more than the rest of a call.
    get signal() { return signal ??= new AbortController().signal },
    // A write makes `signal` a plain property of the object written to (the call's exec, or a
    // wrapper's view of it), so views never share a swapped signal through this closure.
    set signal(value: AbortSignal) {
      Object.defineProperty(this, 'signal', { value, writable: true, enumerable: true, configurable: true })
    },
    startedAt: Date.now(),
    progress: onProgress ? (info?: ProgressInfo) => onProgress(info) : noProgress,
    turn: options.turn,
    step: options.step,
    index: options.index,
    agent: options.agent,
    parent: options.parent,
    meta: {},
    [CALL]: { bodyStarted: false, stages: options.stages },
  }
}

/** A copy of `exec` for the layers inside one `next()` (same facts and record, own signal and progress). */
export function viewOf(exec: Exec): Exec {
  return {
    id: exec.id,
    name: exec.name,
    arguments: exec.arguments,
    signal: exec.signal,
    startedAt: exec.startedAt,
    progress: exec.progress,
    turn: exec.turn,
    step: exec.step,
    index: exec.index,
    agent: exec.agent,
    parent: exec.parent,
    meta: exec.meta,
    [CALL]: exec[CALL],
  }
}
