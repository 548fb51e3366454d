/**
 * A call's arguments, read once. The model's text is parsed and frozen in place when it is an
 * object with no `__proto__` key (`freezeParsedArguments`), and marked so that a second reader
 * takes that very object (`readArguments` for the agent's planner, then `execute`); any other
 * object a caller hands over is copied (`snapshot`). Nothing here throws.
 */
import { messageOf } from './hostile.js'
import { DEPTH_PROBLEM, MAX_ARGUMENT_DEPTH, parseArguments, PROTO_KEY_PROBLEM, snapshot, type Snapshot } from './json.js'
import { ArgumentsMark } from './marks.js'
import type { Exec } from './exec.js'
import type { Checked } from './standard-schema.js'
import type { Json, ToolCall } from './types.js'

/** The arguments of a call that has none the kernel can use. */
export const EMPTY_ARGS: Readonly<Record<string, unknown>> = Object.freeze({})
/** The arguments as the model sent them, parsed once and copied as own data only. */
export type Arguments = { parsed: unknown, snap: Snapshot | undefined }

/** The problem of a call whose `arguments` property throws when read (a getter, a proxy). */
export const UNREADABLE_PROBLEM = 'the arguments could not be read'

/**
 * The arguments object `JSON.parse` just made, frozen in place and marked (`ArgumentsMark`):
 * what `snapshot(value, { arguments: true })` would give, without the copy. Only for a value
 * this module parsed itself (nobody else holds it, and JSON gives nothing but own data of plain
 * JSON types), so all that is left to check is a `__proto__` key — and there can be none when
 * the text names none (any other spelling of it needs a `\\u` escape) — and the depth of
 * nesting, counted while freezing. Returns the problem, or undefined; refused arguments are
 * never marked.
 */
export function freezeParsedArguments(raw: string, parsed: object): string | undefined {
  if (raw.includes('__proto__') || raw.includes('\\u')) {
    const problem = protoKeyIn(parsed, '', 1)
    if (problem !== undefined) return problem
  }
  if (!childrenFrozen(parsed, 1)) return DEPTH_PROBLEM
  Object.freeze(ArgumentsMark.add(parsed))
  return undefined
}

/**
 * Freezes every object and array inside `value` (at level `depth`), innermost first; false as
 * soon as one lies deeper than `MAX_ARGUMENT_DEPTH` (the recursion never goes further).
 */
function childrenFrozen(value: object, depth: number): boolean {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!frozenWithin(value[i], depth + 1)) return false
  } else {
    // Own enumerable keys, as Object.keys gives them, without building the list.
    for (const key in value) {
      if (Object.hasOwn(value, key) && !frozenWithin((value as Record<string, unknown>)[key], depth + 1)) return false
    }
  }
  return true
}

/** Freezes `item` (at level `depth`) with everything inside it; false when something lies too deep. */
function frozenWithin(item: unknown, depth: number): boolean {
  if (typeof item !== 'object' || item === null) return true
  if (depth > MAX_ARGUMENT_DEPTH || !childrenFrozen(item, depth)) return false
  Object.freeze(item)
  return true
}

/**
 * A model's raw arguments read the way `execute` reads them. Text that parses to an object
 * with no `__proto__` key, nested at most `MAX_ARGUMENT_DEPTH` deep, comes back frozen and
 * marked, and `execute` takes that very object without parsing or copying it again; anything
 * else comes back as `parseArguments` gives it, unmarked (and `execute` refuses it for the same
 * reason). For a caller that reads the arguments before handing the call on, like the agent's
 * planner. Never throws, whatever the text.
 */
export function readArguments(raw: unknown): unknown {
  return typeof raw === 'string' ? argumentsFrom(raw).parsed : parseArguments(raw)
}

/** Whether `value` is an arguments object the kernel parsed and froze itself (`readArguments`). */
export function isKernelParsed(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && ArgumentsMark.has(value)
}

/**
 * Where a `__proto__` key is in parsed JSON (`value` at level `depth`), as `PROTO_KEY_PROBLEM`;
 * `DEPTH_PROBLEM` when the search reaches deeper than `MAX_ARGUMENT_DEPTH` first; or undefined.
 */
function protoKeyIn(value: unknown, path: string, depth: number): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  if (depth > MAX_ARGUMENT_DEPTH) return DEPTH_PROBLEM
  const keys = Object.keys(value)
  for (const key of keys) {
    if (key === '__proto__') return path ? `${PROTO_KEY_PROBLEM} (found in ${path})` : PROTO_KEY_PROBLEM
    const problem = protoKeyIn((value as Record<string, unknown>)[key], `${path}/${key}`, depth + 1)
    if (problem !== undefined) return problem
  }
  return undefined
}

/**
 * Parses the call's arguments once and freezes them as own data; never throws. Text the
 * kernel parses is frozen in place, as is taken an object it parsed before (`readArguments`);
 * any other object the caller handed over is copied. Arguments that cannot be read (a getter
 * or proxy that throws) are a problem, never `{}`.
 */
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
  if (isKernelParsed(raw)) return { parsed: raw, snap: { ok: true, value: raw as Json } }
  const parsed = parseArguments(raw)
  const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
  if (!isObject) return { parsed, snap: undefined }
  if (typeof raw === 'string') {
    const problem = freezeParsedArguments(raw, parsed)
    return { parsed, snap: problem === undefined ? { ok: true, value: parsed as Json } : { ok: false, problem } }
  }
  return { parsed, snap: snapshot(parsed, { arguments: true }) }
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
