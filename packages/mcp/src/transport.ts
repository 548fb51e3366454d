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

/** Reads `stream` to its end, calling `onLine` for each non-empty line (UTF-8). */
function drainLines(stream: Stream | null, onLine: (line: string) => void) {
  if (!stream) return
  const readable = stream as Readable
  readable.setEncoding?.('utf8')
  let rest = ''
  readable.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n')
    rest = lines.pop() ?? ''
    for (const line of lines) if (line.trim()) onLine(line.trimEnd())
  })
  readable.on('end', () => {
    if (rest.trim()) onLine(rest.trimEnd())
    rest = ''
  })
  readable.on('error', () => {})
}
