/**
 * The bytes of one POST response of `rein mcp serve --http` that its client has not taken yet,
 * so that progress for a client that does not read can be dropped (`http.ts`).
 */
import type { ServerResponse } from 'node:http'

/** The POST response a request came in on: what it has been sent, and what its client has taken. */
export class Outbox {
  /** Bytes the transport was given for this response (each message's JSON and its SSE framing). */
  queued = 0
  private written = 0
  /** Whether dropping progress for it was reported already. */
  warned = false

  constructor(private readonly res: ServerResponse) {
    const write = res.write as (...args: unknown[]) => boolean
    res.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      this.written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength
      return write.call(res, chunk, ...rest)
    }) as typeof res.write
  }

  /**
   * Bytes sent that its client has not taken: those the transport holds until the socket can
   * take more (the SDK queues them without bound), and those in the response's own buffer.
   */
  get pending(): number {
    return Math.max(0, this.queued - this.written) + this.res.writableLength
  }
}
