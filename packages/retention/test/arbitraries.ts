// Strings that stress UTF-8 cutting: 1-, 2-, 3- and 4-byte characters, emoji sequences, and
// lone surrogates (which encode as the 3-byte U+FFFD), in any mix.
import fc from 'fast-check'

const pieces = ['a', 'Z', ' ', '\n', 'é', 'ß', '€', '中', '😀', '👍🏽', '👨‍👩‍👧', '\u{10FFFF}', '\uD800', '\uDC00', '\uDBFF']

/** Any text, built from the awkward pieces above and arbitrary code points. */
export const text = fc.oneof(
  fc.array(fc.constantFrom(...pieces), { maxLength: 60 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 60 }),
)

/** Well-formed text only (no lone surrogates). */
export const wellFormedText = fc.string({ unit: 'binary', maxLength: 60 })

/** A byte budget, often near the size of the texts above. */
export const budget = fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 300 }))

/** The UTF-8 encoding of `s`, as Node encodes it (lone surrogates become U+FFFD). */
export const encode = (s: string): Buffer => Buffer.from(s, 'utf8')

/** Whether `bytes` is well-formed UTF-8. */
export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}

/** The UTF-8 width of the character that starts at UTF-16 index `i` of `s`. */
export function widthAt(s: string, i: number): number {
  const code = s.codePointAt(i)!
  if (code >= 0xd800 && code <= 0xdfff) return 3
  return encode(String.fromCodePoint(code)).length
}
