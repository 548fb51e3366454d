/**
 * The `exec` of one call and the kernel's private record of it. `tools/execute` layers each get
 * their own view (own signal and progress); `meta` and the record stay one per call. Views are
 * class instances with data fields (docs/performance.md, "class views"). Never throws.
 */
import { createHash } from 'node:crypto'
import { readSafely } from './hostile.js'
import type { RegisteredTool } from './registry.js'
import type { ExecuteOptions, Json, SessionRef, PreToolDecision, ProgressInfo, StageCallbacks, ToolCall, ToolExec, ToolExecutionResult } from '@rein/types'

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
  /** What the `tools/pre-execute` chain decided, once it has (`exec.decision`). */
  decision?: PreToolDecision['kind']
  /** The caller's signal, if it gave one. */
  signal?: AbortSignal
  /** `exec.idempotencyKey`, made on its first read (a hash costs more than most calls need). */
  key?: string
  /** The arguments the call came with, once pre-execute rewrote them. */
  original?: Readonly<Record<string, unknown>>
}

export const CALL = Symbol('rein.call')

/** An exec as the kernel holds it. */
export type Exec = ToolExec & { [CALL]: CallRecord }

const noProgress = () => {}

/** One view of a call: the facts of the call, and this layer's signal and progress. */
class ExecView implements Exec {
  readonly arguments: Readonly<Record<string, unknown>>
  readonly turn: number | undefined
  readonly step: number | undefined
  readonly index: number | undefined
  readonly agent: string | undefined
  readonly parent: string | undefined
  readonly session: SessionRef | undefined
  readonly [CALL]: CallRecord

  constructor(
    readonly id: string, readonly name: string, args: Readonly<Record<string, unknown>>,
    public signal: AbortSignal, public progress: (info?: ProgressInfo) => void, from: ToolExec | ExecuteOptions,
    readonly startedAt: number, readonly meta: Record<string, Json>, record: CallRecord,
  ) {
    this.arguments = args
    this.turn = from.turn
    this.step = from.step
    this.index = from.index
    this.agent = from.agent
    this.parent = from.parent
    this.session = from.session
    this[CALL] = record
  }

  /** Made once per call on first read, from facts every process resuming the call has alike. */
  get idempotencyKey(): string {
    return this[CALL].key ??= idempotencyKeyOf(this.id, this)
  }

  get decision(): PreToolDecision['kind'] | undefined {
    return this[CALL].decision
  }

  get originalArguments(): Readonly<Record<string, unknown>> | undefined {
    return this[CALL].original
  }
}

/**
 * `exec.idempotencyKey` of call `id` at `place` (the options it runs with): a SHA-256 of the
 * session id, turn, parent and id, as base64url, so nothing of it is readable and the same
 * place always gives the same key. Without a session, the call alone.
 */
export function idempotencyKeyOf(id: string, place: Pick<ExecuteOptions, 'session' | 'turn' | 'parent'>): string {
  const { session, turn, parent } = place
  return createHash('sha256').update(JSON.stringify(['rein/idempotency/1', session?.id ?? null, turn ?? null, parent ?? null, id])).digest('base64url')
}

/**
 * The exec of one call. `args` is the frozen argument snapshot (or `{}` when there is none).
 * Throws only when reading `options` throws (a getter, a proxy); the caller checks the signal.
 */
export function makeExec(call: ToolCall, args: Readonly<Record<string, unknown>>, options: ExecuteOptions): Exec {
  const onProgress = options.onProgress
  const signal = options.signal // read once: a getter cannot answer two different signals
  const record: CallRecord = { bodyStarted: false, stages: options.stages, signal }
  return new ExecView(
    readSafely(call, 'id') as string, readSafely(call, 'name') as string, args, signal ?? new AbortController().signal,
    onProgress ? (info?: ProgressInfo) => onProgress(info) : noProgress, options, Date.now(), {}, record,
  )
}

/** A copy of `exec` for the layers inside one `next()`: same facts and record, this moment's signal and progress. */
export function viewOf(exec: Exec): Exec {
  return new ExecView(exec.id, exec.name, exec.arguments, exec.signal, exec.progress, exec, exec.startedAt, exec.meta, exec[CALL])
}
