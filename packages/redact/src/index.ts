/**
 * `@rein/redact`: the one place rein takes secrets out of text. Known values (API keys, header
 * and env values) are matched in every spelling — verbatim, percent-encoded in any mix, JSON-
 * escaped, base64 — and common credentials by pattern; every secret becomes `[REDACTED]`.
 * No dependencies, no I/O, no state.
 *
 *   const redact = createRedactor([apiKey], { extra: ['corp-[0-9a-f]{32}'] })
 *   redact(`GET https://admin:pw@host/?key=${encodeURIComponent(apiKey)} failed`)
 */
export { REDACTED } from './marker.js'
export { MIN_ANYWHERE_LENGTH, MIN_SECRET_LENGTH } from './known.js'
export { BUILT_IN_PATTERNS, MAY_MATCH_BUILT_IN, patternProblem, userPattern, type SecretPattern } from './patterns.js'
export { isSecretKey, mayNameSecret } from './keys.js'
export { mapParts } from './map-parts.js'
export { cutStrings, cutText } from './cut.js'
export { createRedactor, redactValue, type Redactor, type RedactorOptions } from './redactor.js'
