/**
 * `rein mcp serve --http <host:port>`: the Streamable HTTP transport at `/mcp`, one transport
 * and one MCP session (so one rein session) per client that initializes, found again by its
 * `Mcp-Session-Id` header. A request for an unknown session gets 404, one without a session
 * that is not an `initialize` gets 400, and the session is dropped when the client ends it
 * (`DELETE`) or its transport closes. On a loopback address the Host header is checked
 * (DNS rebinding protection).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { Context } from 'cordis'
import { createMcpHost, type McpHostOptions } from './host.js'

/** A running HTTP server. */
export interface HttpServing {
  /** The endpoint, e.g. `http://127.0.0.1:4100/mcp`. */
  url: string
  /** Stops accepting, closes every session and the server. */
  close(): Promise<void>
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]'])

/** Parses `host:port` (`[::1]:8080` for IPv6). Throws a message naming the value and the form. */
export function parseHostPort(text: string): { host: string, port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(text)
  const port = match ? Number(match[2]) : NaN
  if (!match || port > 65535) throw new Error(`--http ${JSON.stringify(text)}: expected <host:port>, such as 127.0.0.1:3333 (port 0 picks a free one)`)
  return { host: match[1].replace(/^\[|\]$/g, ''), port }
}

/** Serves `ctx`'s tools over Streamable HTTP on `host:port`; resolves once it listens. */
export async function serveHttp(ctx: Context, address: { host: string, port: number }, options: McpHostOptions = {}): Promise<HttpServing> {
  const host = createMcpHost(ctx, options)
  const transports = new Map<string, StreamableHTTPServerTransport>()
  let allowedHosts: string[] | undefined

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') return reply(res, 404, 'not found: the MCP endpoint is /mcp')
    const id = req.headers['mcp-session-id']
    if (typeof id === 'string') {
      const transport = transports.get(id)
      if (!transport) return reply(res, 404, `unknown MCP session "${id}"; initialize a new one`)
      return transport.handleRequest(req, res)
    }
    if (req.method !== 'POST') return reply(res, 400, 'no Mcp-Session-Id header: start with an initialize request (POST)')
    const session = host.open(randomUUID())
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => session.id,
      onsessioninitialized: (sessionId) => { transports.set(sessionId, transport) },
      ...(allowedHosts ? { enableDnsRebindingProtection: true, allowedHosts } : {}),
      maxRequestBodySize: 4 * 1024 * 1024,
    })
    transport.onclose = () => {
      transports.delete(session.id)
      void host.close(session)
    }
    await session.server.connect(transport)
    await transport.handleRequest(req, res)
    // Not an initialize (the transport said so): nothing to keep.
    if (!transports.has(session.id)) await host.close(session)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, `internal error: ${error instanceof Error ? error.message : String(error)}`)
      else res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(address.port, address.host, () => { server.off('error', reject); resolve() })
  })
  const { port } = server.address() as AddressInfo
  const shown = address.host.includes(':') ? `[${address.host}]` : address.host
  if (LOOPBACK.has(address.host)) allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]
  return {
    url: `http://${shown}:${port}/mcp`,
    async close() {
      await host.dispose()
      await Promise.all([...transports.values()].map((transport) => transport.close().catch(() => {})))
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A JSON-RPC error body (id null) with HTTP status `status`. */
function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: status === 404 ? -32001 : -32000, message }, id: null }))
}
