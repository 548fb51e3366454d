/**
 * The `exec` object of one call, and the kernel's private record of that call. Every hook
 * and the body see an `exec`; `tools/execute` layers each get their own view of it (their
 * own signal and progress), while the facts (`meta`) and the kernel's record stay one per
 * call. Building an exec never throws, whatever the caller's `call` object is.
 *
 * Views are class instances whose fields are own data properties, so V8 keeps them in fast
 * mode (an object literal with accessors and a symbol key was a dictionary of about a
 * kilobyte, per view). A call given no signal gets a lazy one: see `LazySignalView`.
 */
import { readSafely } from './hostile.js'
import type { RegisteredTool } from './registry.js'
import type { ExecuteOptions, Json, SessionRef, PreToolDecision, ProgressInfo, StageCallbacks, ToolCall, ToolExec, ToolExecutionResult } from './types.js'

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
  /** What the `tools/pre-execute` chain decided, once it has. */
  decision?: PreToolDecision['kind']
  /** The caller's signal; absent until something asks for a signal of a call given none. */
  signal?: AbortSignal
  /** The arguments the call came with, once pre-execute rewrote them. */
  original?: Readonly<Record<string, unknown>>
}

export const CALL = Symbol('rein.call')

/** An exec as the kernel holds it. */
export type Exec = ToolExec & { [CALL]: CallRecord }

const noProgress = () => {}

/** One view of a call: the facts of the call, and this layer's signal and progress. */
class ExecView implements Exec {
  declare signal: AbortSignal
  readonly arguments: Readonly<Record<string, unknown>>
  readonly startedAt: number
  readonly turn: number | undefined
  readonly step: number | undefined
  readonly index: number | undefined
  readonly agent: string | undefined
  readonly parent: string | undefined
  readonly session: SessionRef | undefined
  readonly meta: Record<string, Json>;
  readonly [CALL]: CallRecord

  constructor(
    readonly id: string, readonly name: string, args: Readonly<Record<string, unknown>>,
    signal: AbortSignal | undefined, public progress: (info?: ProgressInfo) => void, from: ToolExec | ExecuteOptions,
    startedAt: number, meta: Record<string, Json>, record: CallRecord,
  ) {
    this.arguments = args
    // Left unset, `signal` is the prototype's accessor (a call given no signal).
    if (signal !== undefined) this.signal = signal
    this.startedAt = startedAt
    this.turn = from.turn
    this.step = from.step
    this.index = from.index
    this.agent = from.agent
    this.parent = from.parent
    this.session = from.session
    this.meta = meta
    this[CALL] = record
  }
}

/**
 * A view of a call given no signal. Until a layer writes `signal`, reading it gives the call's
 * own signal, made on first read and shared by every view; a write makes `signal` a plain data
 * property of that view only. The accessor lives on the prototype: an own accessor per view
 * would cost two closures and a dictionary-mode object per call.
 */
class LazySignalView extends ExecView {}
Object.defineProperty(LazySignalView.prototype, 'signal', {
  get(this: ExecView) { return this[CALL].signal ??= new AbortController().signal },
  set(this: ExecView, value: AbortSignal) {
    Object.defineProperty(this, 'signal', { value, writable: true, enumerable: true, configurable: true })
  },
  enumerable: true,
  configurable: true,
})

/** A view of the right class: `signal` given (the caller's or a swapped one), or lazy. */
function view(
  id: string, name: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal | undefined,
  progress: (info?: ProgressInfo) => void, from: ToolExec | ExecuteOptions, startedAt: number, meta: Record<string, Json>, record: CallRecord,
): ExecView {
  return signal === undefined
    ? new LazySignalView(id, name, args, signal, progress, from, startedAt, meta, record)
    : new ExecView(id, name, args, signal, progress, from, startedAt, meta, record)
}

/**
 * The exec of one call. `args` is the frozen argument snapshot (or `{}` when there is none).
 * Throws only when reading `options` throws (a getter, a proxy); the caller checks the signal.
 */
export function makeExec(call: ToolCall, args: Readonly<Record<string, unknown>>, options: ExecuteOptions): Exec {
  const onProgress = options.onProgress
  const signal = options.signal // read once: a getter cannot answer two different signals
  const record: CallRecord = { bodyStarted: false, stages: options.stages, signal }
  return view(
    readSafely(call, 'id') as string, readSafely(call, 'name') as string, args, signal,
    onProgress ? (info?: ProgressInfo) => onProgress(info) : noProgress, options, Date.now(), {}, record,
  )
}

/**
 * A copy of `exec` for the layers inside one `next()` (same facts and record, own signal and
 * progress). The signal is taken as it is now: a swapped one is copied; the call's own signal is
 * read only when a layer asks for it (it cannot change, so reading it late is the same).
 */
export function viewOf(exec: Exec): Exec {
  const record = exec[CALL]
  // An own `signal` is the caller's or a swapped one; otherwise the view stays lazy.
  const signal = Object.hasOwn(exec, 'signal') ? exec.signal : record.signal
  return view(exec.id, exec.name, exec.arguments, signal, exec.progress, exec, exec.startedAt, exec.meta, record)
}

/**
 * What the `tools/pre-execute` chain decided for the call of `exec`, as the kernel acted on it
 * (`ask` stays `ask` whatever the approval answered). Undefined when the call never reached
 * that chain: an unknown tool, bad arguments, a call the scheduler settled, a closed harness.
 * For `tools/result` observers (an audit log); it never changes anything.
 */
export function preExecuteDecisionOf(exec: ToolExec): PreToolDecision['kind'] | undefined {
  const record = typeof exec === 'object' && exec !== null ? (exec as Partial<Exec>)[CALL] : undefined
  return record?.decision
}
