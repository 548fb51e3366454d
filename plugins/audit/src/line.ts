/**
 * The audit line of one finished call: `JSON.stringify(auditRecord(...))`, byte for byte, or
 * a line naming the error when the record cannot be built. A speed trick lives here, and only
 * here (`docs/performance.md`, "Lines without the record"): when no pattern is configured, a
 * call none of whose strings redaction or cutting would change is written field by field,
 * without building, redacting and cutting the record. Whether a string would change is told
 * by one regex (`MAY_MATCH_BUILT_IN`, the fixed parts the built-in patterns need) and its
 * length; the rest goes the slow way. A property test holds the two paths to the same bytes.
 */
import { codeOf, type PreToolDecision, type ToolExec, type ToolExecutionResult } from '@rein/kernel'
import { createRedactor, MAY_MATCH_BUILT_IN, mayNameSecret, redactValue } from '@rein/redact'
import { auditRecord, contentBytes, isoClock } from './record.js'

/** What the line depends on besides the call: the plugin's config. */
export interface LineOptions {
  /** Extra secret patterns (RegExp sources), as in the config. */
  redact: readonly string[]
  maxStringLength: number
}

/** Turns a finished call, at `now` (ms), into its audit line (no newline). */
export type LineWriter = (exec: ToolExec, result: ToolExecutionResult, now: number) => string

/** Builds the line writer of one plugin instance: its redactor, clock and quick path are made once. */
export function lineWriter(options: LineOptions): LineWriter {
  const text = createRedactor([], { extra: options.redact })
  const redact = <T>(value: T): T => redactValue(value, text)
  const iso = isoClock()
  const maxStringLength = options.maxStringLength
  // The screen knows the built-in patterns only: a configured one may match anything.
  const quick = options.redact.length === 0 ? quickLines(iso, maxStringLength) : undefined
  return (exec, result, now) => {
    try {
      const decision = exec.decision
      return quick?.(exec, result, decision, now)
        ?? JSON.stringify(auditRecord(exec, result, decision, { redact, maxStringLength, now, iso }))
    } catch (error) {
      return JSON.stringify(redact({ ts: new Date().toISOString(), id: exec.id, name: exec.name, auditError: String(error) }))
    }
  }
}

/** A quick line, or undefined when the call needs the slow path (also when anything throws). */
type QuickLine = (exec: ToolExec, result: ToolExecutionResult, decision: PreToolDecision['kind'] | undefined, now: number) => string | undefined

/**
 * The quick path: the line of a call none of whose strings redaction or cutting would change,
 * written field by field in the record's order. A string passes when it is at most `max`
 * characters and holds no built-in pattern's fixed part; the arguments pass as one JSON text
 * (each of their strings and keys is in it, no longer than it) that names no secret key
 * (`mayNameSecret`), so keys that redaction or
 * cutting would make alike (numbered on the slow path) never pass. A call with rewritten
 * arguments, an approval, or a value JSON would not write as it stands goes the slow path.
 * The JSON of the strings that repeat from call to call is remembered with its answer.
 */
export function quickLines(iso: (ms: number) => string, max: number): QuickLine {
  const fits = (text: string) => (max <= 0 || text.length <= max) && !MAY_MATCH_BUILT_IN.test(text)
  /** `,"key":<JSON>` of a string that passes, nothing for undefined; undefined (slow path) otherwise. */
  const stringField = (key: string) => (value: unknown) => {
    if (value === undefined) return ''
    return typeof value === 'string' && fits(value) ? `,"${key}":${JSON.stringify(value)}` : undefined
  }
  const heads = lastOf((ms) => `{"ts":"${iso(ms as number)}"`)
  const ids = stringField('id')
  const names = lastOf(stringField('name'))
  const agents = lastOf(stringField('agent'))
  const parents = lastOf(stringField('parent'))
  const codes = lastOf(stringField('code'))
  const decisions = lastOf((decision) => `,"decision":${JSON.stringify(decision ?? null)}`)
  const line = (exec: ToolExec, result: ToolExecutionResult, decision: PreToolDecision['kind'] | undefined, now: number) => {
    const meta = result.meta
    if (exec.originalArguments !== undefined || meta?.approval !== undefined) return undefined
    const args = JSON.stringify(exec.arguments) as string | undefined
    // A key that names a secret (`password`) has its value redacted whatever it looks like.
    if (args === undefined || !fits(args) || mayNameSecret(args)) return undefined
    const id = ids(exec.id)
    const name = names(exec.name)
    const agent = agents(exec.agent)
    const parent = parents(exec.parent)
    const code = codes(codeOf(result))
    const turn = number('turn', exec.turn)
    const step = number('step', exec.step)
    const index = number('index', exec.index)
    const isError = flag('isError', result.isError)
    const duration = number('durationMs', Math.max(0, now - exec.startedAt))
    const resultBytes = number('resultBytes', contentBytes(result))
    const attempts = number('attempts', typeof meta?.attempts === 'number' ? meta.attempts : undefined)
    const cacheHit = flag('cacheHit', typeof meta?.cacheHit === 'boolean' ? meta.cacheHit : undefined)
    if (id === undefined || name === undefined || agent === undefined || parent === undefined || code === undefined
      || turn === undefined || step === undefined || index === undefined || isError === undefined
      || duration === undefined || resultBytes === undefined || attempts === undefined || cacheHit === undefined) return undefined
    // The record's fields in its order; one template, not an array joined (V8 joins short strings slowly).
    return `${heads(now)}${id}${name}${turn}${step}${index}${agent}${parent},"arguments":${args}${decisions(decision)}`
      + `${isError}${code}${duration},"argBytes":${Buffer.byteLength(args, 'utf8')}${resultBytes}${attempts}${cacheHit}}`
  }
  return (exec, result, decision, now) => {
    try {
      return line(exec, result, decision, now)
    } catch {
      return undefined
    }
  }
}

/** `,"key":n` for a finite number, nothing for undefined; undefined (slow path) for anything else. */
function number(key: string, value: unknown): string | undefined {
  if (value === undefined) return ''
  return typeof value === 'number' && Number.isFinite(value) ? `,"${key}":${value}` : undefined
}

/** `,"key":true|false` for a boolean, nothing for undefined; undefined (slow path) for anything else. */
function flag(key: string, value: unknown): string | undefined {
  if (value === undefined) return ''
  return typeof value === 'boolean' ? `,"${key}":${value}` : undefined
}

/** `f`, remembering its last answer (the strings it is given repeat from call to call). */
function lastOf<T>(f: (value: unknown) => T): (value: unknown) => T {
  let last: unknown
  let answer: T | undefined
  let seen = false
  return (value) => {
    if (!seen || value !== last) {
      seen = true
      last = value
      answer = f(value)
    }
    return answer as T
  }
}
