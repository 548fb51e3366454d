/**
 * What counts as a secret, and the one function that takes secrets out of text. A value of
 * `MIN_ANYWHERE_LENGTH` or more characters is replaced wherever it occurs; a shorter one
 * wherever it stands as a word of its own, never inside a longer word (`abc` is hidden in
 * `key abc.` but `labcoat` is left whole). Each secret is also matched in the forms a server
 * may echo it in: URL-encoded (either hex case, `+` or `%20` for a space) and JSON-escaped.
 */

/** What a secret is replaced by. */
export const REDACTED = '[redacted]'

/** Secrets at least this long are redacted anywhere; shorter ones only as whole words. */
export const MIN_ANYWHERE_LENGTH = 8

/**
 * Header names whose values are not secret. Every other header value a user configures is
 * treated as a credential (`Authorization`, `api-key`, `x-api-key`, a proxy's own token...).
 */
export const PUBLIC_HEADERS: ReadonlySet<string> = new Set([
  'accept', 'content-type', 'user-agent', 'openai-organization', 'openai-project', 'openai-beta',
  'http-referer', 'x-title',
])

/** Takes every secret out of a text. */
export type Redactor = (text: string) => string

/** The secret values among configured headers: all but those named in `PUBLIC_HEADERS`. */
export function headerSecrets(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers)
    .filter(([name]) => !PUBLIC_HEADERS.has(name.toLowerCase()))
    .map(([, value]) => value)
}

/** Whether a name or value may be redacted as a word of its own only. */
const WORD_CHAR = /[\p{L}\p{N}_]/u
const NOT_AFTER_WORD = '(?<![\\p{L}\\p{N}_])'
const NOT_BEFORE_WORD = '(?![\\p{L}\\p{N}_])'

/**
 * A value and what else must be hidden with it: for `Bearer abc…` or `Basic abc…` the
 * credential after the scheme is a secret of its own, since a server may echo just that.
 */
function partsOf(secret: string): string[] {
  const words = secret.split(/\s+/).filter((word) => word !== '')
  return words.length > 1 ? [secret, ...words.slice(1)] : [secret]
}

/** The spellings a server may echo a value in. */
function formsOf(value: string): string[] {
  const forms = [value, JSON.stringify(value).slice(1, -1), asciiJson(value)]
  try {
    const encoded = encodeURIComponent(value)
    forms.push(encoded, encoded.replace(/%20/g, '+'), new URLSearchParams({ v: value }).toString().slice(2))
  } catch {
    // A lone surrogate cannot be URL-encoded, so it cannot be echoed that way either.
  }
  return forms
}

/** JSON with every non-ASCII character escaped, as Python's `json.dumps` writes it. */
function asciiJson(value: string): string {
  return JSON.stringify(value).slice(1, -1).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
}

/** A pattern for one spelling; `%2b` and `%2B` are the same byte, so both hex cases match. */
function patternOf(form: string, wordOnly: boolean): string {
  let pattern = escapeRegExp(form).replace(/%([0-9A-Fa-f])([0-9A-Fa-f])/g,
    (_, a: string, b: string) => `%[${a.toUpperCase()}${a.toLowerCase()}][${b.toUpperCase()}${b.toLowerCase()}]`)
  if (!wordOnly) return pattern
  if (WORD_CHAR.test(form[0]!)) pattern = NOT_AFTER_WORD + pattern
  if (WORD_CHAR.test(form.at(-1)!)) pattern += NOT_BEFORE_WORD
  return pattern
}

/** Builds the redactor for these secrets (empty strings are ignored). Compiled once. */
export function createRedactor(secrets: Iterable<string>): Redactor {
  const patterns = new Map<string, number>()
  for (const secret of secrets) {
    for (const part of partsOf(secret)) {
      const wordOnly = part.length < MIN_ANYWHERE_LENGTH
      for (const form of formsOf(part)) if (form !== '') patterns.set(patternOf(form, wordOnly), form.length)
    }
  }
  if (patterns.size === 0) return (text) => text
  // Longest first, so a secret that contains another is replaced whole.
  const source = [...patterns].sort((a, b) => b[1] - a[1]).map(([pattern]) => pattern).join('|')
  const matcher = new RegExp(source, 'gu')
  return (text) => text.replace(matcher, REDACTED)
}
