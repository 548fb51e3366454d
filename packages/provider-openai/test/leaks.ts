/**
 * Every text a person or a log could see of an error: `String(error)`, its message, its own
 * properties as JSON, `util.inspect` to depth 10, and the same for everything reachable from
 * it (the `cause` chain included). `expectNoSecret` asserts that a secret is in none of them.
 */
import { inspect } from 'node:util'
import { expect } from 'vitest'

/** The texts of `error` and of every value reachable from it. */
export function visibleTexts(error: unknown): string[] {
  const texts = [String(error), inspect(error, { depth: 10 })]
  collect(error, texts, new Set())
  return texts
}

function collect(value: unknown, texts: string[], seen: Set<object>): void {
  if (typeof value === 'string') { texts.push(value); return }
  if (typeof value !== 'object' || value === null || seen.has(value)) return
  seen.add(value)
  const own: Record<string, unknown> = {}
  for (const key of Reflect.ownKeys(value)) {
    const inner = (value as Record<PropertyKey, unknown>)[key]
    if (typeof key === 'string') {
      texts.push(key)
      own[key] = inner
    }
    collect(inner, texts, seen)
  }
  if (value instanceof Error) texts.push(String(value), value.message, value.stack ?? '')
  texts.push(JSON.stringify(own, jsonSafe()) ?? '')
}

/** A `JSON.stringify` replacer that writes bigints as text and a repeated object as `[seen]`. */
function jsonSafe(): (key: string, value: unknown) => unknown {
  const seen = new WeakSet<object>()
  return (_, value) => {
    if (typeof value === 'bigint') return String(value)
    if (typeof value !== 'object' || value === null) return value
    if (seen.has(value)) return '[seen]'
    seen.add(value)
    return value
  }
}

/** Asserts that `secret` (a text, or a pattern for a short secret) appears nowhere in `error`. */
export function expectNoSecret(error: unknown, ...secrets: (string | RegExp)[]): void {
  expect(error).toBeInstanceOf(Error)
  for (const text of visibleTexts(error)) {
    for (const secret of secrets) {
      if (typeof secret === 'string') expect(text).not.toContain(secret)
      else expect(text).not.toMatch(secret)
    }
  }
}
