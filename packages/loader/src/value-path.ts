/**
 * How a path into a value is written in messages: `rules[0].when`, `servers["my server"]`.
 * Pure; used by every check that names a place inside a file or a config.
 */
import type { ValuePath } from './source.js'

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/

/** `rules[0].when`; a key that is not a plain word is quoted (`["a.b"]`); '' for the empty path. */
export function formatPath(path: ValuePath): string {
  return path.map((segment, index) => {
    if (typeof segment === 'number') return `[${segment}]`
    if (!PLAIN_KEY.test(segment)) return `[${JSON.stringify(segment)}]`
    return index === 0 ? segment : `.${segment}`
  }).join('')
}
