/**
 * A copy of a foreign error (fetch's, a socket's) that is safe to attach as a `cause`. Only
 * what explains a network failure is kept — `name`, `message`, `stack`, `code`, `errno`,
 * `syscall`, the nested `cause` and `AggregateError#errors` — every string redacted; any other
 * property is left behind, since it may hold a request's headers. The copy keeps the prototype
 * (still `instanceof TypeError`). A value that is not an error becomes a short description.
 */
import type { Redactor } from './secrets.js'

const KEPT = ['name', 'message', 'stack', 'code', 'errno', 'syscall'] as const
const MAX_DEPTH = 5

/** The redacted copy of `value`. Never throws. */
export function safeCause(value: unknown, redact: Redactor, depth = 0): unknown {
  if (typeof value === 'string') return redact(value)
  if (typeof value === 'number' || typeof value === 'boolean' || value === undefined || value === null) return value
  if (!(value instanceof Error)) return `[${typeof value === 'object' ? 'object' : typeof value}]`
  if (depth >= MAX_DEPTH) return '[cause too deep]'
  try {
    const copy = Object.create(Object.getPrototypeOf(value) as object) as Record<string, unknown>
    for (const key of KEPT) {
      const inner: unknown = (value as unknown as Record<string, unknown>)[key]
      if (typeof inner === 'string' || typeof inner === 'number') define(copy, key, typeof inner === 'string' ? redact(inner) : inner)
    }
    if (value.cause !== undefined) define(copy, 'cause', safeCause(value.cause, redact, depth + 1))
    if (value instanceof AggregateError && Array.isArray(value.errors)) {
      define(copy, 'errors', value.errors.map((e: unknown) => safeCause(e, redact, depth + 1)))
    }
    return copy
  } catch {
    return '[unreadable error]'
  }
}

function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: key === 'code' || key === 'errno' || key === 'syscall', writable: true, configurable: true })
}
