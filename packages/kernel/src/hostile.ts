/**
 * Reading values the kernel does not trust: whatever a tool throws or a plugin returns may be
 * a bare object, a null-prototype object, a proxy whose traps throw, or an error whose
 * `message` getter throws. Every function here is total: it never throws, and it reads each
 * property at most once, so a getter cannot answer one way to a check and another way later.
 */
import { readSafely } from '@rein/schema'

export { messageOf, readSafely } from '@rein/schema'

/** A string property of a thrown value (`code`, `name`), or undefined. Never throws. */
export function stringProperty(value: unknown, key: string): string | undefined {
  const found = readSafely(value, key)
  return typeof found === 'string' && found ? found : undefined
}
