/**
 * Cache keys. Two calls share a key exactly when they name the same tool and their arguments
 * are the same JSON value: object keys are sorted at every depth, so `{a,b}` and `{b,a}` meet.
 * Arguments reaching `tools/execute` are already a lossless JSON snapshot (no undefined, no
 * NaN, no cycles), which is what makes this canonical form exact. `-0` is written `-0`, so it
 * never meets `0` (a tool may tell them apart). By default the session id is part of the key
 * too (see `cacheKey`), so one session's answer is never served to another.
 */

/** JSON text of `value` with object keys sorted (by UTF-16 code units) at every depth. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>
    const members = Object.keys(object).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key])}`)
    return `{${members.join(',')}}`
  }
  // JSON.stringify writes -0 as 0; `-0` is valid JSON and keeps the two apart.
  if (Object.is(value, -0)) return '-0'
  return JSON.stringify(value)
}

/**
 * The key of one call: its tool name and its canonical arguments, and the session id when the
 * entry is kept per session. A key with a session never meets one without (the arrays differ
 * in length), and two sessions never meet each other.
 */
export function cacheKey(tool: string, args: unknown, session?: string): string {
  return session === undefined ? canonicalJson([tool, args]) : canonicalJson([tool, args, session])
}
