/**
 * The patterns of common credentials, redacted whatever their value: PEM private keys, Bearer
 * tokens, Basic credentials, a URL's user and password, `sk-` API keys, AWS access key ids,
 * GitHub tokens, `Authorization: token …`, Slack tokens, Google API keys, JWTs, Stripe secret
 * keys, also glued to the end of a name (`MY_KEY_sk-…`); and labelled values: secret URL query
 * parameters (`?password=…`) and a labelled AWS secret access key. Every pattern runs in time
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
// What follows a label before its value: a closing quote, `:` or `=`, an opening quote
// (`Authorization: x`, `"Authorization": "x"`, `aws_secret_access_key = x`).
const LABEL_END = `["']?[ \\t]*[:=][ \\t]*["']?`

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
  // `Authorization: token <t>` (GitHub's scheme) and the other token schemes after an
  // `Authorization` label (header, JSON or `key=value`); `Bearer` and `Basic` have their own.
  {
    name: 'Authorization token',
    pattern: new RegExp(`${START}((?:Proxy-)?Authorization${LABEL_END}(?:token|Bot|SSWS|ApiKey|Api-Key|Negotiate|NTLM))\\s+[A-Za-z0-9\\-._~+/]{8,}=*`, 'gi'),
    replacement: `$1 ${REDACTED}`,
  },
  // Slack tokens: bot, user, app, refresh, legacy (`xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, `xoxo-`, `xoxe-`).
  { name: 'Slack token', pattern: new RegExp(`${START}xox[abeoprs]-[A-Za-z0-9-]{10,}`, 'g'), replacement: REDACTED },
  { name: 'Google API key', pattern: new RegExp(`${START}AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])`, 'g'), replacement: REDACTED },
  // Three base64url segments, the header JSON (`{"` is `eyJ`); it starts only at the start of a
  // run of base64url characters, so each run is scanned from one start.
  { name: 'JWT', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, replacement: REDACTED },
  // Stripe secret and restricted keys, live and test; `pk_` publishable keys are public by design.
  { name: 'Stripe key', pattern: new RegExp(`${START}[sr]k_(?:live|test)_[A-Za-z0-9]{10,}`, 'g'), replacement: REDACTED },
  // A secret parameter of a URL query (or a `;`-separated connection string): the value goes.
  {
    name: 'secret query parameter',
    pattern: /([?&;](?:password|passwd|pwd|secret|client_secret|token|access_token|refresh_token|id_token|api_key|apikey)=)[^&;#\s]+/gi,
    replacement: `$1${REDACTED}`,
  },
  // An AWS secret access key only where it is labelled: 40 base64 characters alone are too common.
  {
    name: 'labelled AWS secret access key',
    pattern: new RegExp(`${START}((?:aws[_-]?)?secret[_-]?access[_-]?key${LABEL_END})[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])`, 'gi'),
    replacement: `$1${REDACTED}`,
  },
]

/**
 * Matches every string that any built-in pattern could match (each needs one of these fixed
 * parts; case is ignored, which only widens it). A string it does not match is left to the
 * configured patterns alone. Keep it in step with `BUILT_IN_PATTERNS`: a test checks both.
 */
export const MAY_MATCH_BUILT_IN =
  /-----BEGIN |bearer|basic|:\/\/|sk-|AKIA|ASIA|gh[pousr]_|github_pat_|authorization|xox[abeoprs]-|AIza|eyJ|k_live_|k_test_|(?:passwd|pwd|secret|token|key|password)=|secret[_-]?access/i

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
