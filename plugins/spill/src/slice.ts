/**
 * Byte-range reads of a saved text for `read_spilled`. Offsets count UTF-8 bytes; a range is
 * moved onto character boundaries (its start forward, its end back), so every slice is valid
 * text and consecutive reads from `nextOffset` return each byte exactly once.
 */

/** One byte range of a saved text. */
export type ByteSlice = {
  text: string
  /** Where the slice starts: the requested offset, moved forward to a character boundary. */
  offset: number
  /** Where the next read should start (= offset + the slice's bytes). */
  nextOffset: number
  totalBytes: number
  /** Whether bytes remain after `nextOffset`. */
  more: boolean
}

/** Whether `byte` continues a multi-byte UTF-8 character. */
function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80
}

/**
 * The bytes [offset, offset + limit) of `text`, on character boundaries. When `limit` is
 * smaller than the character at `offset`, that one character is returned, so reading always
 * advances. An offset at or past the end gives an empty slice with `more: false`.
 */
export function sliceBytes(text: string, offset: number, limit: number): ByteSlice {
  const bytes = Buffer.from(text, 'utf8')
  return sliceWindow(bytes, 0, bytes.length, offset, limit)
}

/**
 * Where the window `sliceWindow` needs for a read at `offset` ends (exclusive, before clipping
 * to the text). A character is at most 4 bytes: the start moves forward at most 3 bytes, the
 * end needs one byte past it to tell whether it is on a boundary, and a range smaller than its
 * first character is widened to that character.
 */
export function windowEnd(offset: number, limit: number): number {
  return offset + Math.max(limit, 3) + 4
}

/**
 * `sliceBytes` over part of a text: `window` holds its bytes from `windowStart` on, and the
 * text is `total` bytes long. The window must cover [min(offset, total), `windowEnd(offset,
 * limit)`) clipped to the text.
 */
export function sliceWindow(window: Uint8Array, windowStart: number, total: number, offset: number, limit: number): ByteSlice {
  const at = (index: number) => window[index - windowStart]
  let start = Math.min(offset, total)
  while (start < total && isContinuation(at(start))) start++
  let end = Math.min(start + limit, total)
  while (end > start && end < total && isContinuation(at(end))) end--
  if (end === start && start < total) {
    end = start + 1
    while (end < total && isContinuation(at(end))) end++
  }
  const text = Buffer.from(window.buffer, window.byteOffset + start - windowStart, end - start).toString('utf8')
  return { text, offset: start, nextOffset: end, totalBytes: total, more: end < total }
}
