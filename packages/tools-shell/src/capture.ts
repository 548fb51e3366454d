/**
 * Streaming head+tail capture of one output stream in bounded memory. Bytes are decoded as
 * UTF-8 as they arrive (a character split across chunks is joined, never mangled); the first
 * `keep` bytes are held as the head, then a rolling tail of at least the last `keep` bytes.
 * Every byte is counted, so what is finally kept plus what is reported omitted equals the
 * total exactly. Counts are UTF-8 bytes of the decoded text (the raw bytes, for valid UTF-8).
 */
import { StringDecoder } from 'node:string_decoder'
import { headBytes, headTailBytes, tailBytes, utf8Length } from '@rein/retention'

/** What is kept of a stream for a budget. */
export interface Kept {
  /** The start of the output. The whole output when it fits. */
  head: string
  /** The end of the output; empty when the whole output fits. */
  tail: string
  /** UTF-8 bytes left out between head and tail. */
  omittedBytes: number
  /** UTF-8 bytes of the whole output. */
  totalBytes: number
}

export class Capture {
  private readonly decoder = new StringDecoder('utf8')
  private head = ''
  private headBytes = 0
  private headClosed = false
  private tail = ''
  private tailBytes = 0
  private dropped = 0
  /** UTF-8 bytes seen so far. */
  total = 0

  /** `keep`: bytes held at each end; any later budget up to `keep` is served exactly. */
  constructor(private readonly keep: number) {}

  /** Adds a chunk as it arrives. */
  push(chunk: Buffer | string): void {
    this.add(typeof chunk === 'string' ? chunk : this.decoder.write(chunk))
  }

  /** Flushes a character left incomplete at the end of the stream (it becomes U+FFFD). */
  end(): void {
    this.add(this.decoder.end())
  }

  /** The head and tail within `budget` bytes (at most `keep`), with the exact omitted count. */
  kept(budget: number): Kept {
    if (this.dropped === 0) {
      const all = headTailBytes(this.head + this.tail, budget)
      return { head: all.head, tail: all.tail, omittedBytes: all.omittedBytes, totalBytes: this.total }
    }
    const head = headBytes(this.head, Math.floor(budget / 2))
    const tail = tailBytes(this.tail, budget - head.keptBytes)
    return { head: head.text, tail: tail.text, omittedBytes: this.total - head.keptBytes - tail.keptBytes, totalBytes: this.total }
  }

  private add(text: string): void {
    if (text === '') return
    this.total += utf8Length(text)
    if (!this.headClosed) {
      const fit = headBytes(text, this.keep - this.headBytes)
      this.head += fit.text
      this.headBytes += fit.keptBytes
      if (fit.omittedBytes === 0) return
      this.headClosed = true
      text = text.slice(fit.text.length)
    }
    this.tail += text
    this.tailBytes += utf8Length(text)
    if (this.tailBytes > 2 * this.keep) {
      const rest = tailBytes(this.tail, this.keep)
      this.dropped += rest.omittedBytes
      this.tail = rest.text
      this.tailBytes = rest.keptBytes
    }
  }
}
