/**
 * A server-sent-events parser: bytes in, events out (`event` name and `data`). Lines may end in
 * `\n`, `\r\n` or `\r` and may be split anywhere across chunks — inside a UTF-8 character or
 * between `\r` and `\n`; several `data:` lines of one event are joined by `\n`, one leading space
 * stripped; comments and other fields are skipped; an event without data is dropped, and its
 * name does not carry over. An unterminated last event is delivered. A source error propagates as is.
 * Each chunk is scanned once, so the work is linear in the bytes. An event larger than
 * `maxEventSize` characters (its data lines together, or one unfinished line) throws `tooLarge`.
 */
import { MAX_SSE_EVENT_SIZE } from './limits.js'

/** One event: its `event:` name (when given) and its data. */
export interface SSEEvent {
  event?: string
  data: string
}

/** How large an event may grow, and the error when one grows larger. */
export interface SSELimits {
  /** In characters. Default `MAX_SSE_EVENT_SIZE` (16 Mi). */
  maxEventSize?: number
  /** The error to throw; default a plain `Error` naming the limit. */
  tooLarge?: (limit: number) => Error
}

/** Splits a byte stream into events, in order. */
export async function* parseSSE(source: AsyncIterable<Uint8Array>, limits: SSELimits = {}): AsyncGenerator<SSEEvent> {
  const decoder = new TextDecoder('utf-8')
  const parser = new SSEParser(limits)
  for await (const chunk of source) yield* parser.push(decoder.decode(chunk, { stream: true }))
  yield* parser.push(decoder.decode())
  yield* parser.end()
}

const LINE_END = /\r\n?|\n/g

/** The incremental state: the unfinished line and the event being built. */
export class SSEParser {
  /** The pieces of the unfinished line, joined only once it ends. */
  private partial: string[] = []
  private partialSize = 0
  private event: string | undefined
  private data: string[] = []
  private dataSize = 0
  /** The last text ended in `\r`: a `\n` at the start of the next belongs to it. */
  private pendingCR = false
  private readonly maxEventSize: number

  constructor(private readonly limits: SSELimits = {}) {
    this.maxEventSize = limits.maxEventSize ?? MAX_SSE_EVENT_SIZE
  }

  /** Feeds decoded text; returns the events it completed. Only `text` is scanned, never what came before. */
  push(text: string): SSEEvent[] {
    if (text === '') return []
    if (this.pendingCR && text.startsWith('\n')) text = text.slice(1)
    this.pendingCR = false
    const out: SSEEvent[] = []
    let start = 0
    LINE_END.lastIndex = 0
    for (let m = LINE_END.exec(text); m !== null; m = LINE_END.exec(text)) {
      this.line(this.finishLine(text.slice(start, m.index)), out)
      start = LINE_END.lastIndex
      if (m[0] === '\r' && start === text.length) this.pendingCR = true
    }
    if (start < text.length) {
      const piece = text.slice(start)
      this.partial.push(piece)
      this.partialSize += piece.length
      this.checkSize()
    }
    return out
  }

  /** The source ended: an unterminated last line and event are delivered, not lost. */
  end(): SSEEvent[] {
    const out: SSEEvent[] = []
    if (this.partialSize > 0) this.line(this.finishLine(''), out)
    this.line('', out)
    return out
  }

  /** The unfinished line's pieces and `tail`, as one line; the pieces are cleared. */
  private finishLine(tail: string): string {
    if (this.partial.length === 0) return tail
    const line = this.partial.join('') + tail
    this.partial = []
    this.partialSize = 0
    return line
  }

  private checkSize(): void {
    const size = this.partialSize + this.dataSize
    if (size <= this.maxEventSize) return
    const limit = this.maxEventSize
    throw this.limits.tooLarge?.(limit) ?? new Error(`a server-sent event is larger than ${limit} characters`)
  }

  private line(line: string, out: SSEEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) out.push(this.event === undefined ? { data: this.data.join('\n') } : { event: this.event, data: this.data.join('\n') })
      this.data = []
      this.dataSize = 0
      this.event = undefined
      return
    }
    if (line.startsWith(':')) return
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') {
      this.data.push(value)
      this.dataSize += value.length + 1
      this.checkSize()
    } else if (field === 'event') this.event = value
  }
}
