/**
 * A copy of a foreign error (fetch's, a socket's) that is safe to attach as a `cause`: every
 * string it keeps — message, stack, property values and keys, nested causes,
 * `AggregateError#errors` — has passed through the redactor, and the copy keeps the prototype
 * (still `instanceof TypeError`). By default every property is kept, redacted; with `keep`, an
 * error keeps only the properties named (and its nested `cause` and `errors`), and plain data
 * is not walked at all. Anything that is neither an error nor plain data becomes a placeholder.
 */
import type { Redactor } from './secrets.js'

/** What explains a network failure: the properties to `keep` when nothing else should survive. */
export const NETWORK_FACTS: readonly string[] = ['name', 'message', 'stack', 'code', 'errno', 'syscall']

/** Deeper structures are cut; fetch's errors are two or three levels deep. */
const MAX_DEPTH = 8

/** The redacted copy of `value` (an error, plain data, or a primitive). Never throws. */
export function redactedCopy(value: unknown, redact: Redactor, keep?: readonly string[]): unknown {
  return copy(value, { redact, keep, seen: new Map() }, 0)
}

interface Walk {
  redact: Redactor
  keep: readonly string[] | undefined
  seen: Map<object, unknown>
}

function copy(value: unknown, walk: Walk, depth: number): unknown {
  if (typeof value === 'string') return walk.redact(value)
  if (typeof value === 'function') return '[function]'
  if (typeof value !== 'object' || value === null) return value
  if (walk.seen.has(value)) return walk.seen.get(value)
  if (depth >= MAX_DEPTH) return '[too deep]'
  try {
    return copyObject(value, walk, depth)
  } catch {
    return '[unreadable]' // a proxy or an object whose traps throw
  }
}

function copyObject(value: object, walk: Walk, depth: number): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = []
    walk.seen.set(value, out)
    for (const item of value) out.push(copy(item, walk, depth + 1))
    return out
  }
  const proto = Object.getPrototypeOf(value) as object | null
  const isError = value instanceof Error
  const plain = proto === Object.prototype || proto === null
  if (!isError && (!plain || walk.keep !== undefined)) return `[${nameOf(value)}]`
  const out = Object.create(proto) as Record<PropertyKey, unknown>
  walk.seen.set(value, out)
  for (const key of keysOf(value, isError, walk.keep)) {
    const own = Object.getOwnPropertyDescriptor(value, key)
    let inner: unknown
    try { inner = (value as Record<PropertyKey, unknown>)[key] } catch { inner = '[unreadable]' }
    if (own === undefined && inner === undefined) continue
    // Inherited name/message are copied too: an error type may keep them behind a getter
    // that refuses any object but the original.
    Object.defineProperty(out, typeof key === 'string' ? walk.redact(key) : key, {
      value: copy(inner, walk, depth + 1), enumerable: own?.enumerable ?? false, writable: true, configurable: true,
    })
  }
  return out
}

/** The properties to copy: with `keep`, those named and the nested causes; else every own one, and an error's name, message and stack. */
function keysOf(value: object, isError: boolean, keep: readonly string[] | undefined): PropertyKey[] {
  if (keep !== undefined) return [...keep, 'cause', 'errors']
  const keys: PropertyKey[] = isError ? ['name', 'message', 'stack'] : []
  for (const key of Reflect.ownKeys(value)) if (!keys.includes(key)) keys.push(key)
  return keys
}

function nameOf(value: object): string {
  try {
    const name = (value.constructor as { name?: unknown } | undefined)?.name
    return typeof name === 'string' && name !== '' ? name : 'object'
  } catch {
    return 'object'
  }
}
