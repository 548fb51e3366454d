/**
 * Lossless JSON snapshots: a tool's value and a call's arguments must survive a JSON round trip
 * unchanged; `snapshot` proves it by rebuilding them from plain parts (or walking what JSON.parse made), and freezes them.
 */
import { messageOf } from './hostile.js'
import { ArgumentsMark, CopyMark } from './marks.js'
import type { Json } from '@rein/types'

/** Either the frozen copy, or the first place where the value is not lossless JSON. */
export type Snapshot = { ok: true, value: Json } | { ok: false, problem: string }

/** The problem of an argument object with an own `__proto__` key (DESIGN.md §6.1). */
export const PROTO_KEY_PROBLEM = 'arguments may not contain the key "__proto__"'

/** How deep arguments may nest (the outermost object is level 1): deeper is `INVALID_ARGS`, so no walk of them runs out of stack. */
export const MAX_ARGUMENT_DEPTH = 512

/** The problem of arguments nested deeper than `MAX_ARGUMENT_DEPTH`. */
export const DEPTH_PROBLEM = `arguments may not be nested more than ${MAX_ARGUMENT_DEPTH} levels deep`

/**
 * Copies and deep-freezes `value` if it is lossless JSON; otherwise says where it is not; never
 * throws. A `__proto__` key stays own data of the copy; with `arguments: true` it is refused,
 * as is nesting deeper than `MAX_ARGUMENT_DEPTH`.
 */
export const snapshot = (value: unknown, options?: { arguments?: boolean }): Snapshot => snapshotOf(value, options?.arguments === true, false)

/** `snapshot` of arguments JSON.parse just made (no cycle, no accessor, no other holder): checked and frozen in place, not copied. */
export const parsedSnapshot = (value: object): Snapshot => snapshotOf(value, true, true)

function snapshotOf(value: unknown, refuseProto: boolean, fresh: boolean): Snapshot {
  // A copy may hold a `__proto__` key as data, so arguments are always walked.
  if (!refuseProto && typeof value === 'object' && value !== null && CopyMark.has(value)) return { ok: true, value: value as Json }
  // A problem's path is pieced together on the way out (`trail`, innermost key first), not per key.
  let seen: Set<object> | undefined
  let problem: (path: string) => string = String
  let trail: string[] | undefined
  const copy = (v: unknown, depth: number): Json | undefined => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v
      case 'number':
        if (Number.isFinite(v)) return v
        problem = (path) => `${path || 'value'}: ${v} is not a JSON number`
        return undefined
      case 'object': {
        if (v === null) return null
        if (!refuseProto && CopyMark.has(v)) return v as Json
        if (refuseProto && depth > MAX_ARGUMENT_DEPTH) {
          problem = () => DEPTH_PROBLEM
          return undefined
        }
        if (!fresh && (seen ??= new Set()).has(v)) {
          problem = (path) => `${path || 'value'}: circular reference`
          return undefined
        }
        const proto = Object.getPrototypeOf(v)
        if (Array.isArray(v)) {
          seen?.add(v)
          const length = v.length
          const out: Json[] = fresh ? v : new Array(length)
          for (let i = 0; i < length; i++) {
            const item = copy(v[i], depth + 1)
            if (item === undefined) return void (trail ??= []).push(String(i))
            out[i] = item
          }
          seen?.delete(v)
          Object.freeze(CopyMark.add(out))
          return out as Json
        }
        if (proto !== Object.prototype && proto !== null) {
          const kind = (v as object).constructor?.name ?? 'object'
          problem = (path) => `${path || 'value'}: a ${kind} is not plain JSON`
          return undefined
        }
        seen?.add(v)
        const out = (fresh ? v : {}) as { [key: string]: Json }
        for (const key of Object.keys(v)) {
          if (key === '__proto__' && refuseProto) {
            problem = (path) => path ? `${PROTO_KEY_PROBLEM} (found in ${path})` : PROTO_KEY_PROBLEM
            return undefined
          }
          const item = copy((v as Record<string, unknown>)[key], depth + 1)
          if (item === undefined) return void (trail ??= []).push(key)
          if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true })
          else out[key] = item
        }
        seen?.delete(v)
        // The root of an arguments copy is what `execute` takes as it is (`arguments.ts`).
        if (refuseProto && depth === 1) ArgumentsMark.add(out)
        Object.freeze(CopyMark.add(out))
        return out
      }
      default:
        problem = (path) => `${path || 'value'}: ${typeof v} is not JSON`
        return undefined
    }
  }
  try {
    const result = copy(value, 1)
    if (result !== undefined) return { ok: true, value: result }
    return { ok: false, problem: problem(trail ? `/${trail.reverse().join('/')}` : '') }
  } catch (error) {
    return { ok: false, problem: `the value could not be read (${messageOf(error)})` }
  }
}

/** Freezes an object tree in place (a frozen object counts as frozen all the way down); iterative. */
export function deepFreeze<T>(value: T): T {
  if (!isUnfrozen(value)) return value
  const stack: object[] = [value]
  while (stack.length > 0) {
    const next = stack.pop()!
    if (Object.isFrozen(next)) continue
    Object.freeze(next)
    if (Array.isArray(next)) {
      for (let i = 0; i < next.length; i++) if (isUnfrozen(next[i])) stack.push(next[i])
    } else {
      // Own enumerable keys, as Object.keys gives them, without building the list.
      for (const key in next) {
        if (!Object.hasOwn(next, key)) continue
        const item = (next as Record<string, unknown>)[key]
        if (isUnfrozen(item)) stack.push(item)
      }
    }
  }
  return value
}

const isUnfrozen = (value: unknown): value is object => typeof value === 'object' && value !== null && !Object.isFrozen(value)

/** A model's raw arguments parsed: an object as is, `''` as `{}`, JSON parsed, else the text itself. */
export function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {}
  if (raw.trim() === '') return {}
  try {
    return JSON.parse(raw)
  } catch {
    return raw
  }
}
