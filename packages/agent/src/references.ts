/**
 * References between the calls of one batch. A string argument may name an earlier result as
 * `${call_1.result}` or `${call_1.result.a.0.b}`: a string that is exactly one reference is
 * replaced by the JSON value itself (typed), an embedded reference by its text. Substitution
 * never changes its input and reports the first path that does not exist. Walks stop at the
 * kernel's `MAX_ARGUMENT_DEPTH` (arguments nested deeper are `INVALID_ARGS`), so no arguments
 * can exhaust the stack here.
 */
import { MAX_ARGUMENT_DEPTH, type Json } from '@rein/kernel'

/** The reserved argument that adds dependencies without substitution; stripped before validation. */
export const DEPENDS_ON = '$depends_on'

const SOURCE = String.raw`\$\{([A-Za-z0-9_-]+)\.result((?:\.[^.}]+)*)\}`
const ANY = new RegExp(SOURCE, 'g')
const WHOLE = new RegExp(`^${SOURCE}$`)

/** The call ids referenced anywhere in the string values of `args`, each once, in order of appearance. */
export function referencedIds(args: unknown): string[] {
  return referencesIn(args) ?? []
}

/**
 * `referencedIds`, or undefined when `args` nest deeper than `MAX_ARGUMENT_DEPTH` (the kernel
 * refuses them; they are not searched further).
 */
export function referencesIn(args: unknown): string[] | undefined {
  let ids: Set<string> | undefined // made only when a reference turns up (most calls have none)
  const within = visitStrings(args, (text) => {
    if (!text.includes('${')) return
    for (const match of text.matchAll(ANY)) (ids ??= new Set()).add(match[1])
  }, 1)
  if (!within) return undefined
  return ids ? [...ids] : []
}

/** The substituted arguments, or the first reference that could not be resolved. */
export type Substituted = { ok: true, value: unknown } | { ok: false, problem: string }

/** What `resolve` answers for a reference that does not exist (`null` is a value like any other). */
const MISSING: unique symbol = Symbol('missing')

/**
 * A copy of `args` with every reference replaced. `valueOf(id)` returns the final value of a
 * referenced call (only called for ids that `referencedIds` found).
 */
export function substitute(args: unknown, valueOf: (id: string) => Json): Substituted {
  let problem: string | undefined
  const resolve = (id: string, dotted: string): Json | typeof MISSING => {
    const found = lookup(valueOf(id), dotted ? dotted.slice(1).split('.') : [])
    if (found.ok) return found.value
    problem ??= `\${${id}.result${dotted}} does not exist: ${found.problem}`
    return MISSING
  }
  const replace = (text: string): unknown => {
    if (!text.includes('${')) return text
    const whole = WHOLE.exec(text)
    if (whole) {
      const value = resolve(whole[1], whole[2] ?? '')
      return value === MISSING ? text : value
    }
    return text.replace(ANY, (match, id: string, dotted: string) => {
      const value = resolve(id, dotted ?? '')
      if (value === MISSING) return match
      return typeof value === 'string' ? value : JSON.stringify(value)
    })
  }
  const value = mapStrings(args, replace, 1)
  if (value === MISSING) return { ok: false, problem: DEPTH }
  return problem === undefined ? { ok: true, value } : { ok: false, problem }
}

/** Why arguments nested too deep are not substituted (the kernel refuses them as they are). */
const DEPTH = `the arguments are nested more than ${MAX_ARGUMENT_DEPTH} levels deep`

/** Follows `path` into `value`: object keys, and array indices written as numbers. */
export function lookup(value: Json, path: readonly string[]): { ok: true, value: Json } | { ok: false, problem: string } {
  let current: Json = value
  for (let i = 0; i < path.length; i++) {
    const key = path[i]
    const where = i === 0 ? 'the result' : `result.${path.slice(0, i).join('.')}`
    if (Array.isArray(current)) {
      const n = /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : NaN
      if (!(n < current.length)) return { ok: false, problem: `${where} is an array of ${current.length} item(s), with no index "${key}"` }
      current = current[n]
    } else if (typeof current === 'object' && current !== null) {
      if (!Object.hasOwn(current, key)) return { ok: false, problem: `${where} has no property "${key}"` }
      current = current[key]
    } else {
      return { ok: false, problem: `${where} is ${current === null ? 'null' : `a ${typeof current}`}, not an object` }
    }
  }
  return { ok: true, value: current }
}

/**
 * Calls `visit` on every string in `value` (at level `depth`, objects and arrays counted as
 * the kernel counts them); false, having stopped, when something lies deeper than allowed.
 */
function visitStrings(value: unknown, visit: (text: string) => void, depth: number): boolean {
  if (typeof value === 'string') {
    visit(value)
    return true
  }
  if (typeof value !== 'object' || value === null) return true
  if (depth > MAX_ARGUMENT_DEPTH) return false
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!visitStrings(value[i], visit, depth + 1)) return false
  } else {
    // Own enumerable keys, as Object.values gives them, without building the list.
    for (const key in value) {
      if (Object.hasOwn(value, key) && !visitStrings((value as Record<string, unknown>)[key], visit, depth + 1)) return false
    }
  }
  return true
}

/**
 * A copy of `value` with `map` applied to every string, or `MISSING` when something lies deeper
 * than allowed. Keys stay own data: a `__proto__` key is defined, never assigned (which would
 * set the copy's prototype and drop the key), so the kernel still sees it and refuses it.
 */
function mapStrings(value: unknown, map: (text: string) => unknown, depth: number): unknown {
  if (typeof value === 'string') return map(value)
  if (typeof value !== 'object' || value === null) return value
  if (depth > MAX_ARGUMENT_DEPTH) return MISSING
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length)
    for (let i = 0; i < value.length; i++) {
      const item = mapStrings(value[i], map, depth + 1)
      if (item === MISSING) return MISSING
      out[i] = item
    }
    return out
  }
  const out: Record<string, unknown> = {}
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    const item = mapStrings((value as Record<string, unknown>)[key], map, depth + 1)
    if (item === MISSING) return MISSING
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true })
    else out[key] = item
  }
  return out
}
