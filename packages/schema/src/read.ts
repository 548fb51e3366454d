/**
 * Reading values nobody vouches for: what a schema library (or, for the kernel, a tool or a
 * plugin) throws or answers may be a null-prototype object, a proxy whose traps throw, or an
 * error whose `message` getter throws. Both readers are total and read each property once.
 * The kernel re-exports them; this package, a leaf, imports none of rein's.
 */

/** The message of anything thrown, in one readable string. Never throws. */
export function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) {
      const message = error.message
      if (typeof message === 'string' && message) return message
      const name = error.name
      return typeof name === 'string' && name ? name : 'Error'
    }
    if (typeof error === 'string') return error
    if (typeof error === 'object' && error !== null) {
      const message = (error as { message?: unknown }).message
      if (typeof message === 'string' && message) return message
    }
    return String(error)
  } catch {
    return 'an error that cannot be printed'
  }
}

/** `value[key]`, or undefined when reading it throws (a getter, a proxy trap). */
export function readSafely(value: unknown, key: PropertyKey): unknown {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return undefined
  try {
    return (value as Record<PropertyKey, unknown>)[key]
  } catch {
    return undefined
  }
}
