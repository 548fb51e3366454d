/**
 * `createRedactor`: the one function that takes secrets out of a text — known values first (in
 * every spelling, `known.ts`), then the built-in patterns (`patterns.ts`), then configured
 * patterns. Without configured patterns it is idempotent (redacting twice changes nothing), it
 * never throws on any string, and it runs in time linear in the text. `redactValue` applies it
 * to every string of a JSON-like value, keys included, copying only what changed.
 */
import { hiddenValue, isSecretKey } from './keys.js'
import { knownMatcher, replaceKnown } from './known.js'
import { mapParts } from './map-parts.js'
import { BUILT_IN_PATTERNS, MAY_MATCH_BUILT_IN, replacePatterns, userPattern, type SecretPattern } from './patterns.js'

/** Takes every secret out of a text. */
export type Redactor = (text: string) => string

/** What to redact besides the known values. */
export interface RedactorOptions {
  /** The built-in patterns of common credentials (default true). */
  builtIn?: boolean
  /** Extra patterns, as RegExp sources matched globally (check them with `patternProblem`). */
  extra?: readonly string[]
}

/**
 * Builds a redactor, compiled once: `known` are secret values (empty and blank ones ignored);
 * a value shorter than `MIN_ANYWHERE_LENGTH` is only replaced where it stands as a word of its
 * own. Throws only when an `extra` source does not compile.
 */
export function createRedactor(known: Iterable<string> = [], options: RedactorOptions = {}): Redactor {
  const matcher = knownMatcher(known)
  const extra: SecretPattern[] = (options.extra ?? []).map(userPattern)
  const builtIn = options.builtIn !== false
  const all = builtIn ? [...BUILT_IN_PATTERNS, ...extra] : extra
  if (matcher === undefined && all.length === 0) return (text) => text
  return (text) => {
    const out = matcher === undefined ? text : replaceKnown(text, matcher)
    // Most strings hold none of the built-ins' fixed parts: only configured patterns run on them.
    return replacePatterns(out, builtIn && MAY_MATCH_BUILT_IN.test(out) ? all : extra)
  }
}

/**
 * Every string of a JSON-like value redacted, object keys included; a string stored under a key
 * that names a secret (`password`, `X-Api-Key`, `Authorization`…, see `keys.ts`) is replaced
 * whole, whatever it looks like (an `Authorization` value keeps its scheme: `Bearer [REDACTED]`; numbers such as `max_tokens: 100` stay). Copy on write: a value
 * with nothing to redact is returned as it is, and the input is never modified. An object
 * key `__proto__` stays a plain key.
 */
export function redactValue<T>(value: T, redact: Redactor): T {
  return walk(value, redact) as T
}

function walk(value: unknown, redact: Redactor): unknown {
  if (typeof value === 'string') return redact(value)
  if (typeof value !== 'object' || value === null) return value
  return mapParts(value, (part, name) => (name !== undefined && isSecretKey(name) ? hide(name, part, redact) : walk(part, redact)), redact)
}

/**
 * A value stored under a key that names a secret (`keys.ts`): a non-blank string is the marker
 * (an `Authorization` value keeps its scheme), and so is each such string of an array
 * (`set-cookie: [...]`); anything else is walked as usual.
 */
function hide(name: string, value: unknown, redact: Redactor): unknown {
  if (typeof value === 'string') return value.trim() === '' ? value : hiddenValue(name, value)
  if (Array.isArray(value)) return mapParts(value, (item) => hide(name, item, redact))
  return walk(value, redact)
}
