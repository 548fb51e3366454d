/**
 * Bounding the strings of a value for a log: the audit line's and the OTel span's cuts. A
 * string longer than `max` characters is cut (never inside a surrogate pair) and marked
 * `…[N more chars]`, N counting what was dropped; `max` 0 means no limit.
 */
import { mapParts } from './map-parts.js'

/** `text` cut to `max` characters (0 = no limit), marked with how many were dropped. */
export function cutText(text: string, max: number): string {
  if (max <= 0 || text.length <= max) return text
  let end = max
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end--
  return `${text.slice(0, end)}…[${text.length - end} more chars]`
}

/**
 * Every string of a JSON-like value cut to `max`, object keys included (keys cut alike are
 * numbered, as `mapParts` does). Copy on write: a part with nothing to cut is returned as it is.
 */
export function cutStrings(value: unknown, max: number): unknown {
  if (max <= 0) return value
  if (typeof value === 'string') return cutText(value, max)
  if (typeof value !== 'object' || value === null) return value
  return mapParts(value, (inner) => cutStrings(inner, max), (key) => cutText(key, max))
}
