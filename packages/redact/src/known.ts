/**
 * A matcher of known secret values (an API key, a header value) in every spelling a server or
 * a tool may echo them in. Each character of a value is matched as itself, percent-encoded
 * (each UTF-8 byte as `%HH`, either hex case, any subset of the characters), JSON-escaped
 * (`\"`, `\\`, `\/`, `\n`…, `\uXXXX` in either case) or, for a space, `+`; a value of
 * `MIN_ANYWHERE_LENGTH` characters or more is also matched inside its base64 encoding. The
 * pattern grows with the value's length, not with the number of spellings.
 */
import { REDACTED } from './marker.js'

/** Values at least this long are redacted anywhere; shorter ones only as whole words. */
export const MIN_ANYWHERE_LENGTH = 8

/**
 * Configured values shorter than this (after trimming: a `3`, `on`) are not secrets to hide:
 * hiding them would garble every message that happens to hold them. For callers that collect
 * values to redact (an MCP server's settings, what `${env:…}` put into a config).
 */
export const MIN_SECRET_LENGTH = 4

const WORD_CHAR = /^[\p{L}\p{N}_]/u
const ESCAPED_MARKER = REDACTED.replace(/[[\]]/g, '\\$&')
// The marker counts as a word: a short value glued to a redacted one stays whole in every pass.
const NOT_AFTER_WORD = `(?<![\\p{L}\\p{N}_]|${ESCAPED_MARKER})`
const NOT_BEFORE_WORD = `(?![\\p{L}\\p{N}_]|${ESCAPED_MARKER})`

const JSON_SHORT: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' }

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
}

/** A hex digit in either case: `a` → `[Aa]`, `7` → `7`. */
function hexDigit(digit: string): string {
  return /[a-f]/i.test(digit) ? `[${digit.toUpperCase()}${digit.toLowerCase()}]` : digit
}

function hex(value: number, width: number): string {
  return [...value.toString(16).padStart(width, '0')].map(hexDigit).join('')
}

/** Every way one character (one code point) may be spelled. */
function characterPattern(char: string): string {
  const ways = [escapeRegExp(char)]
  const code = char.codePointAt(0)!
  // A lone surrogate has no UTF-8 bytes, so no percent-encoding.
  if (!(code >= 0xd800 && code <= 0xdfff)) {
    ways.push([...new TextEncoder().encode(char)].map((byte) => `%${hex(byte, 2)}`).join(''))
  }
  if (char === ' ') ways.push('\\+')
  const short = JSON_SHORT[char]
  if (short !== undefined) ways.push(`\\\\${escapeRegExp(short)}`)
  ways.push([...Array(char.length).keys()].map((i) => `\\\\u${hex(char.charCodeAt(i), 4)}`).join(''))
  return `(?:${ways.join('|')})`
}

/** The base64 (and base64url) spellings of `value` at each of the three byte alignments. */
function base64Patterns(value: string): string[] {
  const bytes = new TextEncoder().encode(value)
  const out: string[] = []
  for (const offset of [0, 1, 2]) {
    const padded = new Uint8Array(offset + bytes.length)
    padded.set(bytes, offset)
    const encoded = Buffer.from(padded).toString('base64')
    // Characters that mix in the padding bytes before, or the unknown bytes after, are dropped.
    const core = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor((padded.length * 8) / 6))
    if (core.length >= MIN_ANYWHERE_LENGTH) {
      out.push([...core].map((c) => (c === '+' ? '[+-]' : c === '/' ? '[/_]' : c)).join(''))
    }
  }
  return out
}

/**
 * The parts of a configured value that are secrets on their own: the value without any marker
 * text in it, and for `Bearer tok…` or `Basic tok…` the token alone too. Blank values are none.
 */
export function partsOf(value: string): string[] {
  return value.split(REDACTED).flatMap((piece) => {
    if (piece.trim() === '') return []
    const words = piece.split(/\s+/).filter((word) => word !== '')
    return words.length > 1 ? [piece, ...words.slice(1)] : [piece]
  })
}

/** One value's pattern: every spelling of each character; a short value must not touch a word. */
function valuePattern(value: string): string[] {
  const chars = [...value]
  let pattern = chars.map(characterPattern).join('')
  if (chars.length >= MIN_ANYWHERE_LENGTH) return [pattern, ...base64Patterns(value)]
  if (WORD_CHAR.test(chars[0]!)) pattern = NOT_AFTER_WORD + pattern
  if (WORD_CHAR.test(chars.at(-1)!)) pattern += NOT_BEFORE_WORD
  return [pattern]
}

/** Compiles the matcher of `values`; undefined when there is nothing to match. */
export function knownMatcher(values: Iterable<string>): RegExp | undefined {
  const parts = new Set<string>()
  for (const value of values) for (const part of partsOf(value)) parts.add(part)
  if (parts.size === 0) return undefined
  // Longest first, so that a value containing another is replaced whole.
  const sorted = [...parts].sort((a, b) => b.length - a.length)
  return new RegExp(sorted.flatMap(valuePattern).join('|'), 'gu')
}

/**
 * Replaces every match of `matcher` in `text` with the marker. A match that overlaps marker
 * text already in `text` is not a secret spelled out (the marker is public), and is skipped so
 * that redacting twice changes nothing.
 */
export function replaceKnown(text: string, matcher: RegExp): string {
  let out = ''
  let kept = 0
  matcher.lastIndex = 0
  for (let match = matcher.exec(text); match !== null; match = matcher.exec(text)) {
    const start = match.index
    const end = start + match[0].length
    if (end === start || touchesMarker(text, start, end)) {
      matcher.lastIndex = start + 1
      continue
    }
    out += text.slice(kept, start) + REDACTED
    kept = end
  }
  return kept === 0 && out === '' ? text : out + text.slice(kept)
}

/** Whether some marker in `text` overlaps `[start, end)` (a value never holds a whole marker). */
function touchesMarker(text: string, start: number, end: number): boolean {
  return text.slice(Math.max(0, start - REDACTED.length + 1), end + REDACTED.length - 1).includes(REDACTED)
}
