/**
 * Object keys that name a secret: the value of `password`, `X-Api-Key`, `Authorization`… is a
 * secret whatever it looks like, so `redactValue` replaces a string under such a key whole.
 * A key is compared with case and separators (`-`, `_`, `.`, spaces) ignored, so `api_key`,
 * `apiKey`, `API-KEY` and `x-api-key` all count. Kept narrow on purpose: only string values are
 * taken (a `token: 3` stays), counts such as `max_tokens`, `input_tokens`, `token_count` never
 * count, and neither does `session_id` (rein's own session ids key its logs) nor `PWD` in upper
 * case (the shell's working directory).
 */

import { REDACTED } from './marker.js'

/** Keys that are secret names exactly (after normalizing). */
const EXACT = new Set(['pwd', 'token', 'authorization', 'proxyauthorization', 'cookie', 'setcookie'])

/** Endings that make a key a secret name: `db_password`, `client_secret`, `github_access_token`, `aws_secret_access_key`. */
const ENDINGS = [
  'password', 'passwd', 'passphrase', 'secret', 'apikey', 'secretkey', 'secretaccesskey', 'privatekey',
  'accesstoken', 'refreshtoken', 'idtoken', 'authtoken', 'sessiontoken', 'apitoken', 'bearertoken',
]

/** The key with case and separators dropped: `X-Api-Key` → `xapikey`. */
function normalize(key: string): string {
  return key.toLowerCase().replace(/[-_.\s]/g, '')
}

/** A part every secret name holds once normalized (each of `EXACT` and `ENDINGS` has one). */
const SECRET_PART = /pass|secret|key|token|pwd|authorization|cookie/

/** In JSON text: an escaped backslash (kept), an escaped separator `\s` takes (`\n`…), or a separator. */
const JSON_SEPARATOR = /\\\\|\\[nrtf]|\\u000b|[-_.\s]/g

/**
 * Whether JSON text may hold a key that names a secret: true for every text one of whose keys
 * `isSecretKey` takes (and for more). A screen for quick paths that skip `redactValue` when
 * redaction would change nothing: a secret key's value changes, whatever it looks like.
 */
export function mayNameSecret(json: string): boolean {
  return SECRET_PART.test(json.toLowerCase().replace(JSON_SEPARATOR, (found) => (found === '\\\\' ? '\\' : '')))
}

/** Whether `key` names a secret, so that a string stored under it is one. */
export function isSecretKey(key: string): boolean {
  if (key === 'PWD') return false
  const name = normalize(key)
  // Token counts (`max_tokens`, `input_tokens`, `tokens`) end in `tokens`: never secrets.
  if (name.endsWith('tokens')) return false
  return EXACT.has(name) || ENDINGS.some((ending) => name.endsWith(ending))
}

/**
 * What replaces a non-blank string stored under the secret key `key`: the marker, but an
 * `Authorization` value keeps its scheme (`Bearer [REDACTED]`, `token [REDACTED]`), as the
 * text patterns do, so that a log still says how a request authenticated.
 */
export function hiddenValue(key: string, value: string): string {
  const scheme = normalize(key).endsWith('authorization') ? /^\s*([A-Za-z][A-Za-z0-9-]*)\s+\S/.exec(value) : null
  return scheme === null ? REDACTED : `${scheme[1]} ${REDACTED}`
}
