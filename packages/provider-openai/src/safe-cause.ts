/**
 * A copy of a foreign error (fetch's, a socket's) that is safe to attach as a `cause`: every
 * string reachable from it — message, stack, own properties and their keys, nested causes,
 * `AggregateError#errors` — has passed through the redactor. The copy keeps the prototype
 * (still `instanceof TypeError`), `name` and `code`. Anything that is neither an error nor
 * plain data becomes a short placeholder, since its contents cannot be walked safely.
 */
import type { Redactor } from './secrets.js'

/** Deeper structures are cut; fetch's errors are two or three levels deep. */
const MAX_DEPTH = 8

/** The redacted copy of `value` (an error, plain data, or a primitive). Never throws. */
export function redactedCopy(value: unknown, redact: Redactor): unknown {
  return copy(value, redact, new Map(), 0)
}

function copy(value: unknown, redact: Redactor, seen: Map<object, unknown>, depth: number): unknown {
  if (typeof value === 'string') return redact(value)
  if (typeof value === 'function') return '[function]'
  if (typeof value !== 'object' || value === null) return value
  if (seen.has(value)) return seen.get(value)
  if (depth >= MAX_DEPTH) return '[too deep]'
  try {
    return copyObject(value, redact, seen, depth)
  } catch {
    return '[unreadable]' // a proxy or an object whose traps throw
  }
}

function copyObject(value: object, redact: Redactor, seen: Map<object, unknown>, depth: number): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = []
    seen.set(value, out)
    for (const item of value) out.push(copy(item, redact, seen, depth + 1))
    return out
  }
  const proto = Object.getPrototypeOf(value) as object | null
  const isError = value instanceof Error
  if (!isError && proto !== Object.prototype && proto !== null) return `[${nameOf(value)}]`
  const out = Object.create(proto) as Record<PropertyKey, unknown>
  seen.set(value, out)
  const keys: PropertyKey[] = isError ? ['name', 'message', 'stack'] : []
  for (const key of Reflect.ownKeys(value)) if (!keys.includes(key)) keys.push(key)
  for (const key of keys) {
    const own = Object.getOwnPropertyDescriptor(value, key)
    let inner: unknown
    try { inner = (value as Record<PropertyKey, unknown>)[key] } catch { inner = '[unreadable]' }
    if (own === undefined && inner === undefined) continue
    // Inherited name/message are copied too: an error type may keep them behind a getter
    // that refuses any object but the original.
    Object.defineProperty(out, typeof key === 'string' ? redact(key) : key, {
      value: copy(inner, redact, seen, depth + 1), enumerable: own?.enumerable ?? false, writable: true, configurable: true,
    })
  }
  return out
}

function nameOf(value: object): string {
  try {
    const name = (value.constructor as { name?: unknown } | undefined)?.name
    return typeof name === 'string' && name !== '' ? name : 'object'
  } catch {
    return 'object'
  }
}
