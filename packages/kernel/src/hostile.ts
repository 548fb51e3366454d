/**
 * Reading values the kernel does not trust: whatever a tool throws or a plugin returns may be
 * a bare object, a null-prototype object, a proxy whose traps throw, or an error whose
 * `message` getter throws. Every function here is total: it never throws, and it reads each
 * property at most once, so a getter cannot answer one way to a check and another way later.
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

/** A string property of a thrown value (`code`, `name`), or undefined. Never throws. */
export function stringProperty(value: unknown, key: string): string | undefined {
  const found = readSafely(value, key)
  return typeof found === 'string' && found ? found : undefined
}
