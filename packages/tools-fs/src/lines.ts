/**
 * Reads a window of lines from an open file without holding the whole file: one streaming
 * pass finds the window's byte range and counts every line, a second read fetches only the
 * window. The window never exceeds `maxBytes`; it ends at a line end unless its first line
 * alone is longer, in which case that line is cut at a UTF-8 character boundary. Bytes that
 * are not UTF-8 are shown as U+FFFD (3 bytes each), and the cap holds on what is shown.
 */
import type { FileHandle } from 'node:fs/promises'
import { decodeUtf8 } from './text.js'

export interface LineWindow {
  /** The window's text, exactly as in the file (line ends included). */
  text: string
  /** The 1-based number of the first line asked for. */
  startLine: number
  /** The number of the last line (partly) in the window; `startLine - 1` when it is empty. */
  endLine: number
  /** How many lines the file has (a last line without a line end counts). */
  totalLines: number
  /** The file's size in bytes. */
  totalBytes: number
  /** The window's first line was longer than `maxBytes` and was cut. */
  lineCut: boolean
  /** The window's bytes are not valid UTF-8: `text` shows each bad sequence as U+FFFD. */
  notUtf8: boolean
}

const CHUNK = 64 * 1024
const SNIFF = 8000
const LF = 0x0a

/** Reads lines `offset .. offset + limit - 1` (1-based), at most `maxBytes` bytes of them. */
export async function readWindow(file: FileHandle, offset: number, limit: number, maxBytes: number,
  signal: AbortSignal): Promise<LineWindow> {
  const buffer = Buffer.alloc(CHUNK)
  const last = offset + limit - 1
  let line = 1
  let lineStart = 0
  let from = -1
  let to = -1
  let endLine = offset - 1
  let selecting = true
  let lineCut = false
  let position = 0

  // Called at the end of line `line`, which spans [lineStart, end).
  const lineEnded = (end: number) => {
    if (!selecting || line < offset) return
    if (from < 0) from = lineStart
    if (end - from <= maxBytes) {
      to = end
      endLine = line
      if (line >= last) selecting = false
    } else {
      selecting = false
      if (endLine < offset) {
        lineCut = true
        endLine = line
        to = from + maxBytes
      }
    }
  }

  for (;;) {
    signal.throwIfAborted()
    const { bytesRead } = await file.read(buffer, 0, CHUNK, position)
    if (bytesRead === 0) break
    const chunk = buffer.subarray(0, bytesRead)
    let index = chunk.indexOf(LF)
    while (index >= 0) {
      lineEnded(position + index + 1)
      line++
      lineStart = position + index + 1
      index = chunk.indexOf(LF, index + 1)
    }
    position += bytesRead
  }
  const totalBytes = position
  if (position > lineStart) lineEnded(position)
  const totalLines = position > lineStart ? line : line - 1

  let text = ''
  let notUtf8 = false
  if (to > from && from >= 0) {
    const bytes = Buffer.alloc(to - from)
    const { bytesRead } = await file.read(bytes, 0, bytes.length, from)
    const kept = bytes.subarray(0, bytesRead)
    const window = lineCut ? kept.subarray(0, utf8End(kept)) : kept
    const exact = decodeUtf8(window)
    if (exact !== undefined) text = exact
    else {
      // Shown with U+FFFD, the text may be up to 3 times the window's bytes: fit it again.
      const fit = fitShown(window, maxBytes)
      text = fit.text
      if (fit.lines !== undefined) {
        endLine = offset + Math.max(fit.lines, 1) - 1
        lineCut = fit.lines === 0
      }
      notUtf8 = true
    }
  }
  return { text, startLine: offset, endLine, totalLines, totalBytes, lineCut, notUtf8 }
}

/**
 * `bytes` as shown (each bad sequence as U+FFFD), cut to at most `maxBytes` UTF-8 bytes of
 * text: the most whole lines that fit (`lines` of them), or, when not even the first does,
 * the longest prefix of it that does (`lines: 0`). `lines` is undefined when all of it fits.
 */
export function fitShown(bytes: Buffer, maxBytes: number): { text: string, lines?: number } {
  const all = bytes.toString('utf8')
  if (Buffer.byteLength(all) <= maxBytes) return { text: all }
  let shown = 0
  let lines = 0
  let end = 0
  // A line end is a plain byte, so lines shown one by one add up to the whole shown.
  for (let start = 0; start < bytes.length; lines++) {
    const lf = bytes.indexOf(LF, start)
    const next = lf < 0 ? bytes.length : lf + 1
    const size = Buffer.byteLength(bytes.subarray(start, next).toString('utf8'))
    if (shown + size > maxBytes) break
    shown += size
    end = start = next
  }
  if (lines > 0) return { text: bytes.subarray(0, end).toString('utf8'), lines }
  // The longest prefix of the first line that fits, ending at a character boundary.
  let low = 0
  let high = bytes.length
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    const prefix = bytes.subarray(0, utf8End(bytes.subarray(0, mid)))
    if (Buffer.byteLength(prefix.toString('utf8')) <= maxBytes) low = mid
    else high = mid - 1
  }
  return { text: bytes.subarray(0, utf8End(bytes.subarray(0, low))).toString('utf8'), lines: 0 }
}

/** Whether the file looks binary: a NUL byte in its first 8000 bytes. */
export async function looksBinary(file: FileHandle): Promise<boolean> {
  const head = Buffer.alloc(SNIFF)
  const { bytesRead } = await file.read(head, 0, SNIFF, 0)
  return head.subarray(0, bytesRead).includes(0)
}

/** The length of the longest prefix of `bytes` that does not end inside a UTF-8 character. */
export function utf8End(bytes: Uint8Array): number {
  let end = bytes.length
  let back = 0
  // Step back over continuation bytes (10xxxxxx) to the lead byte of the last character.
  while (back < 4 && end - back - 1 >= 0 && (bytes[end - back - 1] & 0xc0) === 0x80) back++
  const leadAt = end - back - 1
  if (leadAt < 0) return end - back
  const lead = bytes[leadAt]
  const width = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1
  return back + 1 >= width ? end : leadAt
}
