/**
 * References between the calls of one batch. A string argument may name an earlier result as
 * `${call_1.result}` or `${call_1.result.a.0.b}`: a string that is exactly one reference is
 * replaced by the JSON value itself (typed), an embedded reference by its text. Substitution
 * never changes its input and reports the first path that does not exist.
 */
import type { Json } from '@rein/kernel'

/** The reserved argument that adds dependencies without substitution; stripped before validation. */
export const DEPENDS_ON = '$depends_on'

const SOURCE = String.raw`\$\{([A-Za-z0-9_-]+)\.result((?:\.[^.}]+)*)\}`
const ANY = new RegExp(SOURCE, 'g')
const WHOLE = new RegExp(`^${SOURCE}$`)

/** The call ids referenced anywhere in the string values of `args`, each once, in order of appearance. */
export function referencedIds(args: unknown): string[] {
  let ids: Set<string> | undefined // made only when a reference turns up (most calls have none)
  visitStrings(args, (text) => {
    if (!text.includes('${')) return
    for (const match of text.matchAll(ANY)) (ids ??= new Set()).add(match[1])
  })
  return ids ? [...ids] : []
}

/** The substituted arguments, or the first reference that could not be resolved. */
export type Substituted = { ok: true, value: unknown } | { ok: false, problem: string }

/**
 * A copy of `args` with every reference replaced. `valueOf(id)` returns the final value of a
 * referenced call (only called for ids that `referencedIds` found).
 */
export function substitute(args: unknown, valueOf: (id: string) => Json): Substituted {
  let problem: string | undefined
  const resolve = (id: string, dotted: string): Json | undefined => {
    const found = lookup(valueOf(id), dotted ? dotted.slice(1).split('.') : [])
    if (found.ok) return found.value
    problem ??= `\${${id}.result${dotted}} does not exist: ${found.problem}`
    return undefined
  }
  const replace = (text: string): unknown => {
    if (!text.includes('${')) return text
    const whole = WHOLE.exec(text)
    if (whole) return resolve(whole[1], whole[2] ?? '') ?? text
    return text.replace(ANY, (match, id: string, dotted: string) => {
      const value = resolve(id, dotted ?? '')
      if (value === undefined) return match
      return typeof value === 'string' ? value : JSON.stringify(value)
    })
  }
  const value = mapStrings(args, replace)
  return problem === undefined ? { ok: true, value } : { ok: false, problem }
}

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

function visitStrings(value: unknown, visit: (text: string) => void): void {
  if (typeof value === 'string') visit(value)
  else if (Array.isArray(value)) for (const item of value) visitStrings(item, visit)
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) visitStrings(item, visit)
}

function mapStrings(value: unknown, map: (text: string) => unknown): unknown {
  if (typeof value === 'string') return map(value)
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map))
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[key] = mapStrings(item, map)
    return out
  }
  return value
}
