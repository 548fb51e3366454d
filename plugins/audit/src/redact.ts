/**
 * Secret redaction for audit lines. The built-in patterns always apply (they cannot be turned
 * off) and run before the configured ones; every string of a value, object keys included, is
 * rewritten; the input is never modified (a value with nothing to redact is returned as it
 * is). A redacted secret leaves a marker, never a fragment.
 */
import { mapParts } from './map-parts.js'


/** Replaces a redacted secret. */
export const REDACTED = '[REDACTED]'

/** A secret pattern and what replaces each match (a `String.replace` replacement: a string, or a function of the match and its groups). */
export interface SecretPattern {
  name: string
  pattern: RegExp
  replacement: string | ((match: string, ...groups: string[]) => string)
}

// A secret glued to the end of a name (`MY_KEY_sk-…`, `token=ghp_…`) still counts: a pattern
// may start after anything but a letter or digit (where `\b` would also refuse `_`).
const START = '(?<![A-Za-z0-9])'

/** `Basic <base64>` is redacted when the base64 decodes to `user:password` (so `Basic settings` stays). */
function basicCredentials(match: string, scheme: string, token: string): string {
  const decoded = Buffer.from(token, 'base64').toString('latin1')
  return /^[\x20-\x7e]*:[\x20-\x7e]*$/.test(decoded) ? `${scheme} ${REDACTED}` : match
}

/** Common secrets, always redacted. Private key blocks go first, before anything inside them matches. */
export const BUILT_IN_PATTERNS: readonly SecretPattern[] = [
  {
    name: 'PEM private key block',
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
    replacement: '[REDACTED PRIVATE KEY]',
  },
  { name: 'Bearer token', pattern: new RegExp(`${START}(Bearer)\\s+[A-Za-z0-9\\-._~+/]{8,}=*`, 'gi'), replacement: `$1 ${REDACTED}` },
  { name: 'Basic credentials', pattern: new RegExp(`${START}(Basic)\\s+([A-Za-z0-9+/]{4,}={0,2})`, 'gi'), replacement: basicCredentials },
  { name: 'URL user and password', pattern: /([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@:]*:[^\s/?#@]*@/gi, replacement: `$1${REDACTED}@` },
  { name: 'sk- API key', pattern: new RegExp(`${START}sk-[A-Za-z0-9_-]{16,}`, 'g'), replacement: REDACTED },
  // An AWS key id glued after lower-case letters (`idAKIA…`) counts too; only upper-case letters and digits around it do not.
  { name: 'AWS access key id', pattern: /(?<![0-9A-Z])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])/g, replacement: REDACTED },
  { name: 'GitHub token', pattern: new RegExp(`${START}(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`, 'g'), replacement: REDACTED },
]

/** Compiles a configured pattern source (global flag added). Throws the RegExp SyntaxError. */
export function userPattern(source: string, index: number): SecretPattern {
  return { name: `redact[${index}]`, pattern: new RegExp(source, 'g'), replacement: REDACTED }
}

/** Returns a function that redacts every string in a JSON-like value with the built-ins plus `extra`. */
export function createRedactor(extra: readonly SecretPattern[] = []): (value: unknown) => unknown {
  const patterns = [...BUILT_IN_PATTERNS, ...extra]
  const text = (input: string) => {
    // Most strings hold none of the built-ins' fixed parts: only configured patterns run on them.
    let out = input
    for (const { pattern, replacement } of MAY_MATCH_BUILT_IN.test(input) ? patterns : extra) {
      pattern.lastIndex = 0
      out = typeof replacement === 'string' ? out.replace(pattern, replacement) : out.replace(pattern, replacement)
    }
    return out
  }
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value)
    if (typeof value === 'object' && value !== null) return mapParts(value, walk, text)
    return value
  }
  return walk
}

/**
 * Matches every string that any built-in pattern could match (each needs one of these fixed
 * parts; case is ignored, which only widens it). A string it does not match is left to the
 * configured patterns alone. Keep it in step with `BUILT_IN_PATTERNS`: a test checks both.
 */
export const MAY_MATCH_BUILT_IN = /-----BEGIN |bearer|basic|:\/\/|sk-|AKIA|ASIA|gh[pousr]_|github_pat_/i
