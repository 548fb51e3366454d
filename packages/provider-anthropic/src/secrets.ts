/**
 * The one function that takes secrets out of text. The secrets are the `apiKey` and the value
 * of every configured header. A secret of `MIN_ANYWHERE_LENGTH` characters or more is replaced
 * wherever it occurs; a shorter one only where it stands as a word of its own (`abc` goes in
 * `key abc.`, `labcoat` stays). Each is also matched as a server may echo it: JSON-escaped (also
 * with `\uXXXX` for non-ASCII) and URL-encoded (either hex case, `+` or `%20` for a space).
 */

/** What a secret is replaced by. */
export const REDACTED = '[redacted]'

/** Secrets at least this long are redacted anywhere; shorter ones only as whole words. */
export const MIN_ANYWHERE_LENGTH = 8

/** Takes every secret out of a text. */
export type Redactor = (text: string) => string

/** A value and the credential inside it: for `Bearer tok…` the token alone is a secret too. */
function partsOf(secret: string): string[] {
  const words = secret.split(/\s+/).filter((w) => w !== '')
  return words.length > 1 ? [secret, ...words.slice(1)] : [secret]
}

/** The spellings a server may echo a value in. */
function spellings(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1)
  const ascii = json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  const out = [value, json, ascii]
  try {
    const url = encodeURIComponent(value)
    out.push(url, url.replace(/%20/g, '+'))
  } catch {
    // A lone surrogate cannot be URL-encoded, so no server echoes it that way.
  }
  return out
}

const escape = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
const WORD = /[\p{L}\p{N}_]/u

/** The pattern of one spelling: `%2f` matches `%2F`; a short secret must not touch a word character. */
function patternOf(spelling: string, wholeWord: boolean): string {
  let pattern = escape(spelling).replace(/%([0-9A-F])([0-9A-F])/g, (_, a: string, b: string) => `%[${a}${a.toLowerCase()}][${b}${b.toLowerCase()}]`)
  if (wholeWord && WORD.test(spelling[0]!)) pattern = `(?<![\\p{L}\\p{N}_])${pattern}`
  if (wholeWord && WORD.test(spelling.at(-1)!)) pattern = `${pattern}(?![\\p{L}\\p{N}_])`
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
  const matcher = new RegExp([...patterns].sort((a, b) => b[1] - a[1]).map(([p]) => p).join('|'), 'gu')
  return (text) => text.replace(matcher, REDACTED)
}
