/**
 * A server-sent-events parser, by hand: bytes in, the `data` of each event out. Lines may end
 * in `\n`, `\r\n` or `\r`, and may be split anywhere across chunks (even inside a UTF-8
 * character or between `\r` and `\n`); several `data:` lines of one event are joined by `\n`;
 * comments (`:`) and other fields are skipped. An error of the source propagates unchanged.
 */

/** Splits a byte stream into SSE event payloads, in order. */
export async function* parseSSE(source: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8')
  const parser = new SSELineParser()
  for await (const chunk of source) {
    yield* parser.push(decoder.decode(chunk, { stream: true }))
  }
  yield* parser.push(decoder.decode())
  yield* parser.end()
}

/** The incremental state: the unterminated tail of the text and the event being built. */
export class SSELineParser {
  private buffer = ''
  private data: string[] = []
  /** A `\r` ended the previous text; a `\n` at the start of the next belongs to it. */
  private pendingCR = false

  /** Feeds decoded text; returns the payloads of the events it completed. */
  push(text: string): string[] {
    if (this.pendingCR && text.startsWith('\n')) text = text.slice(1)
    this.pendingCR = false
    this.buffer += text
    const out: string[] = []
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

  /** The source ended: an unterminated last line and event are delivered rather than lost. */
  end(): string[] {
    const out: string[] = []
    if (this.buffer !== '') this.line(this.buffer, out)
    this.buffer = ''
    this.line('', out)
    return out
  }

  private line(line: string, out: string[]): void {
    if (line === '') {
      if (this.data.length > 0) out.push(this.data.join('\n'))
      this.data = []
      return
    }
    if (line.startsWith(':')) return
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    if (field !== 'data') return
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    this.data.push(value)
  }
}
