/**
 * Spellings of a value written independently of the matcher: each character left alone or
 * percent-encoded (upper or lower hex, chosen per digit), the whole value JSON-escaped or
 * `\u`-escaped, and its base64 inside a longer base64 text.
 */
import fc from 'fast-check'

/** A value from printable ASCII, a few special characters and some non-ASCII. */
export function secret(minLength: number, maxLength = 40): fc.Arbitrary<string> {
  const char = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') },
    { weight: 3, arbitrary: fc.constantFrom(...'-_.~+/=%\\"\' :@&?#[]') },
    { weight: 1, arbitrary: fc.constantFrom('é', '€', '😀', '\n', '\t', 'ß') },
  )
  return fc.array(char, { minLength, maxLength }).map((chars) => chars.join(''))
    .filter((value) => [...value].length >= minLength && value.trim() !== '')
}

function percent(char: string, upper: boolean[]): string {
  let i = 0
  return [...new TextEncoder().encode(char)].map((byte) => `%${[...byte.toString(16).padStart(2, '0')]
    .map((digit) => (upper[i++ % upper.length] ? digit.toUpperCase() : digit)).join('')}`).join('')
}

/** `value` with the characters picked by `mask` percent-encoded, hex case from `upper`. */
export function percentSpelling(value: string, mask: boolean[], upper: boolean[]): string {
  return [...value].map((char, i) => (mask[i % mask.length] ? percent(char, upper.length ? upper : [true]) : char)).join('')
}

/** Every character as `\uXXXX`, hex case from `upper`. */
export function unicodeEscaped(value: string, upper: boolean): string {
  return [...Array(value.length).keys()].map((i) => {
    const digits = value.charCodeAt(i).toString(16).padStart(4, '0')
    return `\\u${upper ? digits.toUpperCase() : digits}`
  }).join('')
}

/** The value inside a base64 text: `prefix` + value + `suffix`, encoded. */
export function base64Around(prefix: string, value: string, suffix: string, url: boolean): string {
  const encoded = Buffer.from(prefix + value + suffix).toString(url ? 'base64url' : 'base64')
  return encoded
}

/** One spelling of `value`, any of the kinds above. */
export function spelling(value: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(value),
    fc.constant(JSON.stringify(value).slice(1, -1)),
    fc.boolean().map((upper) => unicodeEscaped(value, upper)),
    fc.tuple(fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }))
      .map(([mask, upper]) => percentSpelling(value, mask, upper)),
    fc.constant(encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, 'x')) === encodeURIComponent(value) ? encodeURIComponent(value).replace(/%20/g, '+') : value),
  )
}

/** Text around a secret: anything, including marker fragments and other spellings. */
export const noise: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', ' ', '[REDACTED]', '[REDAC', 'TED]', '%', '%2', '\\u00', '\\', 'Bearer ', 'https://u:', '@', 'sk-'),
)
