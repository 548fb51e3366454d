/**
 * Where a secret shows in an error: every text a person or a log could see of it —
 * `String(error)`, `util.inspect(error, { depth: 10 })`, and for the error and everything
 * reachable from it (the `cause` chain, `errors`, any own property, symbol-keyed ones too) its
 * message, stack, keys, string values and own properties as JSON. `secretLeaks` returns the
 * places a secret was found, so an empty list means none of these texts holds it.
 */
import { inspect } from 'node:util'

/** Every text that can be seen of `value`, labelled by where it came from. */
export function visibleTexts(value: unknown): { where: string, text: string }[] {
  const out = [
    { where: 'String(error)', text: safely(() => String(value)) },
    { where: 'util.inspect(error, { depth: 10 })', text: safely(() => inspect(value, { depth: 10, showHidden: true })) },
  ]
  walk(value, 'error', out, new Set())
  return out
}

function safely(show: () => string): string {
  try { return show() } catch (error) { return `[could not be shown: ${String(error)}]` }
}

function walk(value: unknown, path: string, out: { where: string, text: string }[], seen: Set<object>): void {
  if (typeof value === 'string') { out.push({ where: path, text: value }); return }
  if (typeof value !== 'object' || value === null || seen.has(value)) return
  seen.add(value)
  const keys: (string | symbol)[] = Reflect.ownKeys(value)
  // An error's message and stack may be inherited or behind getters; read them by name too.
  if (value instanceof Error) for (const key of ['name', 'message', 'stack', 'cause']) if (!keys.includes(key)) keys.push(key)
  const plain: Record<string, unknown> = {}
  for (const key of keys) {
    let inner: unknown
    try { inner = (value as Record<PropertyKey, unknown>)[key] } catch { continue }
    const name = typeof key === 'symbol' ? key.toString() : key
    out.push({ where: `key of ${path}`, text: name })
    if (typeof key === 'string') plain[key] = inner
    walk(inner, `${path}.${name}`, out, seen)
  }
  out.push({ where: `JSON of ${path}`, text: safely(() => JSON.stringify(plain, jsonSafe()) ?? '') })
}

/** Writes bigints as text and a repeated object as `[seen]`, so any value can be shown. */
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

/** The places where any of `secrets` shows in `error` (`[]`: nowhere). Empty secrets are ignored. */
export function secretLeaks(error: unknown, ...secrets: string[]): string[] {
  const wanted = secrets.filter((s) => s !== '')
  const found: string[] = []
  for (const { where, text } of visibleTexts(error)) {
    for (const secret of wanted) if (text.includes(secret)) found.push(`${where} contains the secret`)
  }
  return [...new Set(found)]
}
