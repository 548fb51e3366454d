/**
 * The patterns of common credentials, redacted whatever their value: PEM private keys, Bearer
 * tokens, Basic credentials, a URL's user and password, `sk-` API keys, AWS access key ids and
 * GitHub tokens, also glued to the end of a name (`MY_KEY_sk-…`). Every pattern runs in time
 * linear in its input: each repeated part either ends the match or stops at a character the
 * next part cannot start with, and a scheme is only tried at the start of a run of scheme
 * characters (so each `://` starts one scan for a URL's last `@`, ending at the next `/`).
 * Configured patterns (RegExp sources) run after these.
 */
import { isUtf8 } from 'node:buffer'
import { REDACTED } from './marker.js'

/** A secret pattern and what replaces each match (a `String.replace` replacement). */
export interface SecretPattern {
  name: string
  pattern: RegExp
  replacement: string | ((match: string, ...groups: string[]) => string)
}

// A pattern may start after anything but a letter or digit (where `\b` would also refuse `_`).
const START = '(?<![A-Za-z0-9])'

/**
 * `Basic <base64>` is redacted when the base64 decodes to `user:password`: text with a colon and
 * no control character, read as UTF-8 (RFC 7617) when the bytes are valid UTF-8, or as latin1.
 * English words rarely decode to such text, so `Basic settings` stays.
 */
function basicCredentials(match: string, scheme: string, token: string): string {
  const bytes = Buffer.from(token, 'base64')
  const credentials = (text: string) => text.includes(':') && !/\p{Cc}/u.test(text)
  const secret = credentials(bytes.toString('latin1')) || (isUtf8(bytes) && credentials(bytes.toString('utf8')))
  return secret ? `${scheme} ${REDACTED}` : match
}

/** Common secrets, always redacted. Private key blocks go first, before anything inside them matches. */
export const BUILT_IN_PATTERNS: readonly SecretPattern[] = [
  {
    name: 'PEM private key block',
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
    replacement: REDACTED,
  },
  { name: 'Bearer token', pattern: new RegExp(`${START}(Bearer)\\s+[A-Za-z0-9\\-._~+/]{8,}=*`, 'gi'), replacement: `$1 ${REDACTED}` },
  { name: 'Basic credentials', pattern: new RegExp(`${START}(Basic)\\s+([A-Za-z0-9+/]{4,}={0,2})`, 'gi'), replacement: basicCredentials },
  // The user part runs to the first colon, the password to the last `@` before the path, query
  // or fragment (as WHATWG URL, curl and Python split them), so either may hold an `@`.
  {
    name: 'URL user and password',
    pattern: /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/)[^\s/?#:]*:[^\s/?#]*@/gi,
    replacement: `$1${REDACTED}@`,
  },
  { name: 'sk- API key', pattern: new RegExp(`${START}sk-[A-Za-z0-9_-]{16,}`, 'g'), replacement: REDACTED },
  // An AWS key id glued after lower-case letters (`idAKIA…`) counts too; only upper-case letters and digits around it do not.
  { name: 'AWS access key id', pattern: /(?<![0-9A-Z])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])/g, replacement: REDACTED },
  { name: 'GitHub token', pattern: new RegExp(`${START}(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`, 'g'), replacement: REDACTED },
]

/**
 * Matches every string that any built-in pattern could match (each needs one of these fixed
 * parts; case is ignored, which only widens it). A string it does not match is left to the
 * configured patterns alone. Keep it in step with `BUILT_IN_PATTERNS`: a test checks both.
 */
export const MAY_MATCH_BUILT_IN = /-----BEGIN |bearer|basic|:\/\/|sk-|AKIA|ASIA|gh[pousr]_|github_pat_/i

/**
 * Why a configured pattern source cannot be used, or undefined when it can: it must compile,
 * and must not match the empty string (it would mark every position as a secret). For config
 * checks, which put the answer in an error naming the key.
 */
export function patternProblem(source: string): string | undefined {
  let pattern: RegExp
  try {
    pattern = new RegExp(source, 'g')
  } catch (error) {
    return `is not a valid regular expression: ${JSON.stringify(source)} (${(error as Error).message}); fix or remove it`
  }
  if (pattern.test('')) {
    return `matches the empty string (${JSON.stringify(source)}), so it would mark every position as a secret; make it match at least one character`
  }
  return undefined
}

/** Compiles a configured pattern source (global flag added). Throws the RegExp SyntaxError. */
export function userPattern(source: string, index: number): SecretPattern {
  return { name: `redact[${index}]`, pattern: new RegExp(source, 'g'), replacement: REDACTED }
}

/** Applies `patterns` in order, each over the whole text. */
export function replacePatterns(text: string, patterns: readonly SecretPattern[]): string {
  let out = text
  for (const { pattern, replacement } of patterns) {
    pattern.lastIndex = 0
    out = typeof replacement === 'string' ? out.replace(pattern, replacement) : out.replace(pattern, replacement)
  }
  return out
}
