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
  const total = bytes.length
  let start = Math.min(offset, total)
  while (start < total && isContinuation(bytes[start])) start++
  let end = Math.min(start + limit, total)
  while (end > start && end < total && isContinuation(bytes[end])) end--
  if (end === start && start < total) {
    end = start + 1
    while (end < total && isContinuation(bytes[end])) end++
  }
  return { text: bytes.toString('utf8', start, end), offset: start, nextOffset: end, totalBytes: total, more: end < total }
}
