/**
 * The one function that takes secrets out of text. A secret of `MIN_ANYWHERE_LENGTH`
 * characters or more is replaced wherever it occurs; a shorter one only where it stands as a
 * word of its own, never inside a longer word (`abc` is hidden in `key abc.`, `labcoat` stays
 * whole). Each secret is also matched in the spellings a server may echo it in: URL-encoded
 * (either hex case, `+` or `%20` for a space, form encoding) and JSON-escaped (also `\uXXXX`).
 */

/** What a secret is replaced by. */
export const REDACTED = '[redacted]'

/** Secrets at least this long are redacted anywhere; shorter ones only as whole words. */
export const MIN_ANYWHERE_LENGTH = 8

/** Takes every secret out of a text. */
export type Redactor = (text: string) => string

/**
 * The secret values among configured headers: every value, except those of the headers named
 * in `publicNames` (lower case), which a provider may declare not secret (`user-agent`...).
 */
export function secretHeaderValues(headers: Readonly<Record<string, string>>, publicNames: ReadonlySet<string> = new Set()): string[] {
  return Object.entries(headers).filter(([name]) => !publicNames.has(name.toLowerCase())).map(([, value]) => value)
}

const WORD_CHAR = /[\p{L}\p{N}_]/u
const NOT_AFTER_WORD = '(?<![\\p{L}\\p{N}_])'
const NOT_BEFORE_WORD = '(?![\\p{L}\\p{N}_])'

/** A value and the credential inside it: for `Bearer tok…` or `Basic tok…` the token alone is a secret too. */
function partsOf(secret: string): string[] {
  const words = secret.split(/\s+/).filter((word) => word !== '')
  return words.length > 1 ? [secret, ...words.slice(1)] : [secret]
}

/** The spellings a server may echo a value in. */
function spellings(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1)
  const ascii = json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  const out = [value, json, ascii]
  try {
    const url = encodeURIComponent(value)
    out.push(url, url.replace(/%20/g, '+'), new URLSearchParams({ v: value }).toString().slice(2))
  } catch {
    // A lone surrogate cannot be URL-encoded, so no server echoes it that way.
  }
  return out
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
}

/** The pattern of one spelling: `%2f` matches `%2F`; a short secret must not touch a word character. */
function patternOf(spelling: string, wholeWord: boolean): string {
  let pattern = escapeRegExp(spelling).replace(/%([0-9A-Fa-f])([0-9A-Fa-f])/g,
    (_, a: string, b: string) => `%[${a.toUpperCase()}${a.toLowerCase()}][${b.toUpperCase()}${b.toLowerCase()}]`)
  if (!wholeWord) return pattern
  if (WORD_CHAR.test(spelling[0]!)) pattern = NOT_AFTER_WORD + pattern
  if (WORD_CHAR.test(spelling.at(-1)!)) pattern += NOT_BEFORE_WORD
  return pattern
}

/** Builds the redactor for `secrets` (empty ones ignored), compiled once. */
export function createRedactor(secrets: Iterable<string>): Redactor {
  const patterns = new Map<string, number>()
  for (const secret of secrets) {
    for (const part of partsOf(secret)) {
      for (const spelling of spellings(part)) {
        if (spelling !== '') patterns.set(patternOf(spelling, part.length < MIN_ANYWHERE_LENGTH), spelling.length)
      }
    }
  }
  if (patterns.size === 0) return (text) => text
  // Longest first, so that a secret containing another is replaced whole.
  const matcher = new RegExp([...patterns].sort((a, b) => b[1] - a[1]).map(([pattern]) => pattern).join('|'), 'gu')
  return (text) => text.replace(matcher, REDACTED)
}
