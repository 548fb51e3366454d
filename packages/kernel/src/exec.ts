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
  /** The call's own signal: the caller's, or one made when first asked for (never swapped). */
  ownSignal: () => AbortSignal
}

export const CALL = Symbol('rein.call')

/** An exec as the kernel holds it. */
export type Exec = ToolExec & { [CALL]: CallRecord }

const noProgress = () => {}

/** The exec of one call. `args` is the frozen argument snapshot (or `{}` when there is none). */
export function makeExec(call: ToolCall, args: Readonly<Record<string, unknown>>, options: ExecuteOptions): Exec {
  const onProgress = options.onProgress
  let signal = options.signal
  // A caller without a signal gets one only if something asks for it: an AbortController
  // costs more than the rest of a call.
  const ownSignal = () => signal ??= new AbortController().signal
  return {
    id: readSafely(call, 'id') as string,
    name: readSafely(call, 'name') as string,
    arguments: args,
    get signal() { return ownSignal() },
    set signal(value: AbortSignal) { swap(this, value) },
    startedAt: Date.now(),
    progress: onProgress ? (info?: ProgressInfo) => onProgress(info) : noProgress,
    turn: options.turn,
    step: options.step,
    index: options.index,
    agent: options.agent,
    parent: options.parent,
    meta: {},
    [CALL]: { bodyStarted: false, stages: options.stages, ownSignal },
  }
}

/**
 * A write makes `signal` a plain property of the object written to (the call's exec, or a
 * wrapper's view of it), so views never share a swapped signal through a closure.
 */
function swap(target: object, value: AbortSignal) {
  Object.defineProperty(target, 'signal', { value, writable: true, enumerable: true, configurable: true })
}

/**
 * A copy of `exec` for the layers inside one `next()` (same facts and record, own signal and
 * progress). The signal is taken as it is now: a swapped one is copied; the call's own signal is
 * read only when a layer asks for it (it cannot change, so reading it late is the same).
 */
export function viewOf(exec: Exec): Exec {
  const record = exec[CALL]
  const swapped = Object.getOwnPropertyDescriptor(exec, 'signal')
  const view: Exec = {
    id: exec.id,
    name: exec.name,
    arguments: exec.arguments,
    get signal() { return record.ownSignal() },
    set signal(value: AbortSignal) { swap(this, value) },
    startedAt: exec.startedAt,
    progress: exec.progress,
    turn: exec.turn,
    step: exec.step,
    index: exec.index,
    agent: exec.agent,
    parent: exec.parent,
    meta: exec.meta,
    [CALL]: record,
  }
  if (swapped && 'value' in swapped) swap(view, swapped.value as AbortSignal)
  return view
}
