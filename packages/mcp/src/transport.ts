/**
 * Opens the transport to one server: a child process over stdio, or streamable HTTP. A
 * child's stderr is always drained (an unread pipe would block the server) and handed over
 * line by line. Nothing here reconnects or retries: a transport is used for one connection.
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { Readable, Stream } from 'node:stream'
import { isStdio, type ServerConfig } from './config.js'

/** The longest a polite HTTP session termination may delay a close. */
const FAREWELL_MS = 1000

/** One opened transport and what the connection needs to know about it. */
export interface OpenedTransport {
  transport: Transport
  /** The child's process id once started (stdio only). */
  pid(): number | undefined
  /** Says goodbye before closing (ends an HTTP session); never throws, bounded in time. */
  farewell(): Promise<void>
}

/** Creates (does not start) the transport for `config`. `onStderr` gets each stderr line of a child. */
export function openTransport(config: ServerConfig, onStderr: (line: string) => void): OpenedTransport {
  if (isStdio(config)) {
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: config.env,
      cwd: config.cwd,
      stderr: 'pipe',
    })
    drainLines(transport.stderr, onStderr)
    return { transport, pid: () => transport.pid ?? undefined, farewell: async () => {} }
  }
  const transport = new StreamableHTTPClientTransport(new URL(config.url), {
    requestInit: { headers: { ...config.headers } },
  })
  return {
    transport,
    pid: () => undefined,
    farewell: async () => {
      if (!transport.sessionId) return
      let timer: NodeJS.Timeout | undefined
      const bound = new Promise<void>((resolve) => { timer = setTimeout(resolve, FAREWELL_MS) })
      await Promise.race([transport.terminateSession().catch(() => {}), bound])
      clearTimeout(timer)
    },
  }
}

/** The longest stderr line kept; the rest of a longer line is dropped up to its newline. */
export const MAX_STDERR_LINE = 8 * 1024
/** Ends a line that was cut at `MAX_STDERR_LINE`. */
export const LINE_CUT = '…(line cut)'

/**
 * Reads `stream` to its end, calling `onLine` for each non-empty line (UTF-8). Memory stays
 * bounded however long a line is: at most `MAX_STDERR_LINE` characters of it are kept.
 */
function drainLines(stream: Stream | null, onLine: (line: string) => void) {
  if (!stream) return
  const readable = stream as Readable
  readable.setEncoding?.('utf8')
  const lines = new LineBuffer(onLine)
  readable.on('data', (chunk: string) => lines.push(chunk))
  readable.on('end', () => lines.flush())
  readable.on('error', () => {})
}

/** Splits text into lines, keeping at most `MAX_STDERR_LINE` characters of the pending one. */
class LineBuffer {
  private pending = ''
  private cut = false

  constructor(private readonly onLine: (line: string) => void) {}

  /** Takes one chunk; calls `onLine` for every line it completes. */
  push(chunk: string): void {
    let start = 0
    for (let end = chunk.indexOf('\n'); end >= 0; end = chunk.indexOf('\n', start)) {
      this.add(chunk.slice(start, end))
      this.flush()
      start = end + 1
    }
    this.add(chunk.slice(start))
  }

  /** Ends the pending line (at a newline, or at the end of the stream). */
  flush(): void {
    const line = this.cut ? `${this.pending}${LINE_CUT}` : this.pending
    this.pending = ''
    this.cut = false
    if (line.trim()) this.onLine(line.trimEnd())
  }

  private add(piece: string) {
    if (this.cut || !piece) return
    const room = MAX_STDERR_LINE - this.pending.length
    if (piece.length <= room) {
      this.pending += piece
      return
    }
    this.pending += piece.slice(0, room)
    this.cut = true
  }
}
