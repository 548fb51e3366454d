/**
 * Builds the audit record of one finished call from what the kernel hands every observer: the
 * call (`exec`), its frozen result and the pre-execute decision seen on the way in. Pure; every
 * string of the record that comes from the call or its result (id, name, agent, parent, code and
 * the arguments, keys included) is redacted and, when long, cut; its sizes are of the originals.
 */
import { codeOf, type Json, type PreToolDecision, type ToolExec, type ToolExecutionResult } from '@rein/kernel'
import { cutStrings } from '@rein/redact'

/** One line of the audit file. Absent fields are left out of the JSON. */
export interface AuditRecord {
  /** When the call finished (ISO 8601). */
  ts: string
  id: string
  name: string
  turn?: number
  step?: number
  index?: number
  agent?: string
  parent?: string
  /** The arguments after redaction (the ones the call ran with). */
  arguments: unknown
  /** The arguments the call came with, after redaction, when a pre-execute handler rewrote them. */
  originalArguments?: unknown
  /** The pre-execute chain's decision, or null when the call never reached it (unknown tool, bad arguments, settled by the scheduler). */
  decision: PreToolDecision['kind'] | null
  isError: boolean
  /** `error.info.code` of a failure. */
  code?: string
  /** From `exec.startedAt` to the finished result. */
  durationMs: number
  /** UTF-8 bytes of the arguments as JSON, before redaction. */
  argBytes: number
  /** UTF-8 bytes of the text the model sees, plus the length of image data. */
  resultBytes: number
  /** How many times the body ran (`result.meta.attempts`, set by a retry plugin). */
  attempts?: number
  /** Whether the result came from a cache (`result.meta.cacheHit`). */
  cacheHit?: boolean
  /**
   * The answer an ask got (`result.meta.approval`, set by the approval service): `allow-once`,
   * `allow-session` or `deny`, who gave it (`by`, when recorded), when (ISO 8601) and the
   * request's id when it was answered in the session. A call that parked has none: its `code` is
   * `APPROVAL_PARKED`, and it gets a second line when it finally runs or is refused.
   */
  approval?: { answer: string, at?: string, by?: string, id?: string }
}

export interface RecordOptions {
  redact: (value: unknown) => unknown
  maxStringLength: number
  now: number
  /** `now` as ISO 8601 (default: `new Date(now).toISOString()`). */
  iso?: (now: number) => string
}

/**
 * `new Date(ms).toISOString()`, remembering the last answer: calls that finish in the same
 * millisecond (a parallel batch) share one string. State is per returned function.
 */
export function isoClock(): (ms: number) => string {
  let last = Number.NaN
  let text = ''
  return (ms) => {
    if (ms !== last) {
      last = ms
      text = new Date(ms).toISOString()
    }
    return text
  }
}

/** The record of one finished call. */
export function auditRecord(
  exec: ToolExec, result: ToolExecutionResult, decision: PreToolDecision['kind'] | undefined, options: RecordOptions,
): AuditRecord {
  const meta = result.meta ?? {}
  const clean = <T>(value: T): T => cutStrings(options.redact(value), options.maxStringLength) as T
  const original = exec.originalArguments
  return {
    ts: options.iso ? options.iso(options.now) : new Date(options.now).toISOString(),
    id: clean(exec.id),
    name: clean(exec.name),
    turn: exec.turn,
    step: exec.step,
    index: exec.index,
    agent: clean(exec.agent),
    parent: clean(exec.parent),
    arguments: clean(exec.arguments),
    originalArguments: original === undefined ? undefined : clean(original),
    decision: decision ?? null,
    isError: result.isError,
    code: clean(codeOf(result)),
    durationMs: Math.max(0, options.now - exec.startedAt),
    argBytes: Buffer.byteLength(JSON.stringify(exec.arguments), 'utf8'),
    resultBytes: contentBytes(result),
    attempts: typeof meta.attempts === 'number' ? meta.attempts : undefined,
    cacheHit: typeof meta.cacheHit === 'boolean' ? meta.cacheHit : undefined,
    approval: approvalOf(meta.approval, clean),
  }
}

/** The approval facts of `result.meta.approval`, when they are there and well-formed; `clean` applied to its strings. */
export function approvalOf(value: Json | undefined, clean: <T>(value: T) => T): AuditRecord['approval'] {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof value.answer !== 'string') return undefined
  const approval: NonNullable<AuditRecord['approval']> = { answer: clean(value.answer) }
  if (typeof value.at === 'number' && Number.isFinite(value.at)) approval.at = new Date(value.at).toISOString()
  if (typeof value.by === 'string') approval.by = clean(value.by)
  if (typeof value.id === 'string') approval.id = clean(value.id)
  return approval
}

/** UTF-8 bytes of the text blocks of `result.content`, plus the length of image data. */
export function contentBytes(result: ToolExecutionResult): number {
  let bytes = 0
  for (const block of result.content) {
    bytes += block.type === 'text' ? Buffer.byteLength(block.text, 'utf8') : block.data.length
  }
  return bytes
}
