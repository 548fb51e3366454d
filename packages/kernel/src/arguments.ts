/**
 * A call's arguments, read once: parsed, then checked and frozen as own data (`snapshot`: in
 * place when parsed from text, else a copy), and marked so that a second reader takes that very
 * object (`readArguments` for a scheduler's planner, then `execute`) without reading it again. Nothing here throws.
 */
import { messageOf } from './hostile.js'
import { DEPTH_PROBLEM, parseArguments, parsedSnapshot, PROTO_KEY_PROBLEM, snapshot, type Snapshot } from './json.js'
import { ArgumentsMark } from './marks.js'
import type { Exec } from './exec.js'
import type { Checked } from '@rein/schema'
import type { Json, ToolCall } from '@rein/types'

/** The arguments of a call that has none the kernel can use. */
export const EMPTY_ARGS: Readonly<Record<string, unknown>> = Object.freeze({})
/** The arguments as the model sent them, parsed once, and as own data only (frozen). */
export type Arguments = { parsed: unknown, snap: Snapshot | undefined }

/** The problem of a call whose `arguments` property throws when read (a getter, a proxy). */
const UNREADABLE_PROBLEM = 'the arguments could not be read'

/**
 * A model's raw arguments read as `execute` reads them, for a scheduler that reads them first:
 * the frozen object `execute` then takes as it is, or undefined for arguments it would refuse
 * (not JSON, not an object, a `__proto__` key, nested too deep). Never throws.
 */
export function readArguments(raw: unknown): Readonly<Record<string, unknown>> | undefined {
  try {
    const { snap } = argumentsFrom(raw)
    return snap?.ok ? snap.value as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

/** The call's arguments parsed once and frozen as own data; unreadable ones are a problem, never `{}`. Never throws. */
export function argumentsOf(call: ToolCall): Arguments {
  try {
    const isObject = (typeof call === 'object' || typeof call === 'function') && call !== null
    return argumentsFrom(isObject ? call.arguments : undefined)
  } catch (error) {
    return { parsed: undefined, snap: { ok: false, problem: `${UNREADABLE_PROBLEM} (${messageOf(error)})` } }
  }
}

/**
 * Whether an arguments problem is said to the model as it is: the rules of DESIGN.md §6.1
 * (no `__proto__` key, bounded nesting) and arguments that could not be read. Any other
 * problem of a copy is a value that is not plain JSON.
 */
export function isArgumentsRule(problem: string): boolean {
  return problem.startsWith(PROTO_KEY_PROBLEM) || problem === DEPTH_PROBLEM || problem.startsWith(UNREADABLE_PROBLEM)
}

/** `argumentsOf` once the raw value is read. May throw on a hostile object (a getter, a proxy). */
function argumentsFrom(raw: unknown): Arguments {
  if (typeof raw === 'object' && raw !== null && ArgumentsMark.has(raw)) return { parsed: raw, snap: { ok: true, value: raw as Json } }
  const parsed = parseArguments(raw)
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { parsed, snap: undefined }
  return { parsed, snap: parsed !== raw ? parsedSnapshot(parsed) : snapshot(parsed, { arguments: true }) }
}

/**
 * A schema's answer for the arguments: what is wrong, or undefined. A Standard Schema's output
 * (defaults, transforms) becomes `exec.arguments`, copied as own data.
 */
export function applyChecked(exec: Exec, checked: Checked): string | undefined {
  if (!checked.ok) return checked.lines.join('; ')
  if ('value' in checked) {
    const out = snapshot(checked.value, { arguments: true })
    if (!out.ok) return `the schema's output is not plain JSON (${out.problem})`
    ;(exec as { arguments: unknown }).arguments = out.value
  }
  return undefined
}
