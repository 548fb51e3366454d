/**
 * Lossless JSON snapshots. A tool's value (and an argument object handed over already parsed)
 * must survive a JSON round trip unchanged; `snapshot` proves that by rebuilding it from plain
 * parts, and freezes the copy so nothing downstream can change what the model was shown.
 */
import type { Json } from './types.js'

/** Either the frozen copy, or the first place where the value is not lossless JSON. */
export type Snapshot = { ok: true, value: Json } | { ok: false, problem: string }

/** Copies and deep-freezes `value` if it is lossless JSON; otherwise says where it is not. */
export function snapshot(value: unknown): Snapshot {
  const seen = new Set<object>()
  let problem = ''
  const copy = (v: unknown, path: string): Json | undefined => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v
      case 'number':
        if (Number.isFinite(v)) return v
        problem = `${path || 'value'}: ${v} is not a JSON number`
        return undefined
      case 'object': {
        if (v === null) return null
        if (seen.has(v)) {
          problem = `${path || 'value'}: circular reference`
          return undefined
        }
        const proto = Object.getPrototypeOf(v)
        if (Array.isArray(v)) {
          seen.add(v)
          const out: Json[] = new Array(v.length)
          for (let i = 0; i < v.length; i++) {
            const item = copy(v[i], `${path}/${i}`)
            if (item === undefined) return undefined
            out[i] = item
          }
          seen.delete(v)
          return Object.freeze(out) as Json
        }
        if (proto !== Object.prototype && proto !== null) {
          const kind = (v as object).constructor?.name ?? 'object'
          problem = `${path || 'value'}: a ${kind} is not plain JSON`
          return undefined
        }
        seen.add(v)
        const out: { [key: string]: Json } = {}
        for (const key of Object.keys(v)) {
          const item = copy((v as Record<string, unknown>)[key], `${path}/${key}`)
          if (item === undefined) return undefined
          out[key] = item
        }
        seen.delete(v)
        return Object.freeze(out)
      }
      default:
        problem = `${path || 'value'}: ${typeof v} is not JSON`
        return undefined
    }
  }
  const result = copy(value, '')
  return result === undefined ? { ok: false, problem } : { ok: true, value: result }
}

/** Freezes an object tree in place (plain objects and arrays); returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

/**
 * Parses a model's raw arguments once: an object passes through, an empty string is `{}`,
 * valid JSON is parsed, and anything else stays the original string (an `INVALID_ARGS` later).
 */
export function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {}
  if (raw.trim() === '') return {}
  try {
    return JSON.parse(raw)
  } catch {
    return raw
  }
}
