/**
 * A server-sent-events parser: bytes in, events out (`event` name and `data`). Lines may end in
 * `\n`, `\r\n` or `\r` and may be split anywhere across chunks — inside a UTF-8 character or
 * between `\r` and `\n`; several `data:` lines of one event are joined by `\n`, one leading space
 * stripped; comments and other fields are skipped; an event without data is dropped, and its
 * name does not carry over. An unterminated last event is delivered. A source error propagates as is.
 */

/** One event: its `event:` name (when given) and its data. */
export interface SSEEvent {
  event?: string
  data: string
}

/** Splits a byte stream into events, in order. */
export async function* parseSSE(source: AsyncIterable<Uint8Array>): AsyncGenerator<SSEEvent> {
  const decoder = new TextDecoder('utf-8')
  const parser = new SSEParser()
  for await (const chunk of source) yield* parser.push(decoder.decode(chunk, { stream: true }))
  yield* parser.push(decoder.decode())
  yield* parser.end()
}

/** The incremental state: the unfinished line and the event being built. */
export class SSEParser {
  private buffer = ''
  private event: string | undefined
  private data: string[] = []
  /** The last text ended in `\r`: a `\n` at the start of the next belongs to it. */
  private pendingCR = false

  /** Feeds decoded text; returns the events it completed. */
  push(text: string): SSEEvent[] {
    if (this.pendingCR && text.startsWith('\n')) text = text.slice(1)
    this.pendingCR = false
    this.buffer += text
    const out: SSEEvent[] = []
    let start = 0
    for (let i = 0; i < this.buffer.length; i++) {
      const ch = this.buffer[i]
      if (ch !== '\n' && ch !== '\r') continue
      this.line(this.buffer.slice(start, i), out)
      if (ch === '\r') {
        if (i + 1 === this.buffer.length) this.pendingCR = true
        else if (this.buffer[i + 1] === '\n') i++
      }
      start = i + 1
    }
    this.buffer = this.buffer.slice(start)
    return out
  }

  /** The source ended: an unterminated last line and event are delivered, not lost. */
  end(): SSEEvent[] {
    const out: SSEEvent[] = []
    if (this.buffer !== '') this.line(this.buffer, out)
    this.buffer = ''
    this.line('', out)
    return out
  }

  private line(line: string, out: SSEEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) out.push(this.event === undefined ? { data: this.data.join('\n') } : { event: this.event, data: this.data.join('\n') })
      this.data = []
      this.event = undefined
      return
    }
    if (line.startsWith(':')) return
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') this.data.push(value)
    else if (field === 'event') this.event = value
  }
}
