/**
 * UTF-8 byte arithmetic over JavaScript strings, without encoding them. Widths agree with
 * `TextEncoder`: a surrogate pair is one 4-byte character, and a lone surrogate counts as the
 * 3-byte U+FFFD it encodes to. Cut points returned here never fall inside a surrogate pair,
 * so the bytes of a prefix plus the bytes of the rest always equal the bytes of the whole.
 */

/** Whether `code` (a UTF-16 code unit) is a high surrogate (the first half of a pair). */
function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

/** Whether `code` (a UTF-16 code unit) is a low surrogate (the second half of a pair). */
function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

/** The UTF-8 width of a BMP code unit that is not part of a surrogate pair. */
function unitWidth(code: number): number {
  if (code < 0x80) return 1
  if (code < 0x800) return 2
  return 3
}

/**
 * Counts UTF-8 bytes in plain JavaScript, one code unit at a time. Used where no native
 * counter exists; in Node `utf8Length` uses `Buffer.byteLength`, which counts the same way
 * (the tests check that both agree with it) and is several times faster on large texts.
 */
export function countUtf8Bytes(text: string): number {
  const length = text.length
  let bytes = length
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) continue
    if (code < 0x800) {
      bytes += 1
    } else if (isHigh(code) && i + 1 < length && isLow(text.charCodeAt(i + 1))) {
      bytes += 2 // two UTF-16 units, four bytes
      i++
    } else {
      bytes += 2
    }
  }
  return bytes
}

type ByteLength = (text: string, encoding: 'utf8') => number
const nativeByteLength = (globalThis as { Buffer?: { byteLength: ByteLength } }).Buffer?.byteLength

/**
 * The number of bytes `text` takes in UTF-8 (what `TextEncoder` would produce).
 * Pure; runs in time linear in the length of `text`.
 */
export const utf8Length: (text: string) => number = nativeByteLength
  ? (text) => nativeByteLength(text, 'utf8')
  : countUtf8Bytes

/** A cut point in a string: a UTF-16 index and the UTF-8 bytes on the kept side of it. */
export interface Cut {
  /** The UTF-16 index of the cut. */
  index: number
  /** The UTF-8 bytes of the kept side (before the cut for a prefix, after it for a suffix). */
  bytes: number
}

/**
 * The end of the longest prefix of `text` whose UTF-8 form fits in `budget` bytes.
 * Never cuts a character (a pair stays whole). Linear in the length of the prefix.
 */
export function prefixCut(text: string, budget: number): Cut {
  let bytes = 0
  let i = 0
  while (i < text.length) {
    const code = text.charCodeAt(i)
    const pair = isHigh(code) && i + 1 < text.length && isLow(text.charCodeAt(i + 1))
    const width = pair ? 4 : unitWidth(code)
    if (bytes + width > budget) break
    bytes += width
    i += pair ? 2 : 1
  }
  return { index: i, bytes }
}

/**
 * The start of the longest suffix of `text` whose UTF-8 form fits in `budget` bytes.
 * Never cuts a character (a pair stays whole). Linear in the length of the suffix.
 */
export function suffixCut(text: string, budget: number): Cut {
  let bytes = 0
  let i = text.length
  while (i > 0) {
    const code = text.charCodeAt(i - 1)
    const pair = isLow(code) && i - 2 >= 0 && isHigh(text.charCodeAt(i - 2))
    const width = pair ? 4 : unitWidth(code)
    if (bytes + width > budget) break
    bytes += width
    i -= pair ? 2 : 1
  }
  return { index: i, bytes }
}
