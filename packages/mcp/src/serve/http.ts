/**
 * `rein mcp serve --http <host:port>`: the Streamable HTTP transport at `/mcp`, one transport
 * and one MCP session (so one rein session) per client that initializes, found again by its
 * `Mcp-Session-Id` header. A request for an unknown session gets 404, one without a session
 * that is not an `initialize` gets 400, and the session is dropped when the client ends it
 * (`DELETE`), its transport closes, or it stays idle for `idleTimeoutMs`.
 *
 * Every request is checked before anything else (DNS rebinding protection, as the MCP
 * transport spec asks): its `Host` must name this server — a loopback name or address, the
 * address it is bound to, or one of `allowedHosts` — and an `Origin`, when present, must be
 * an http(s) origin of such a host or one of `allowedOrigins`; else 403. There is no
 * authentication, so a non-loopback address is served only with `allowRemote`.
 *
 * Bounds: at most `maxSessions` sessions (an initialize past it gets 503); a session with no
 * request and no open exchange for `idleTimeoutMs` is closed (its calls aborted); and while
 * more than `maxPendingBytes` of a response wait for a client that does not read them, the
 * progress notifications of its calls are dropped (the result is still sent).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse, type RequestId } from '@modelcontextprotocol/sdk/types.js'
import type { Context } from 'cordis'
import { createMcpHost, type McpHostOptions } from './host.js'
import { Outbox } from './outbox.js'
import { isLoopback, requestCheck } from './request-check.js'
import type { McpSession } from './session.js'

/** A running HTTP server. */
export interface HttpServing {
  /** The endpoint, e.g. `http://127.0.0.1:4100/mcp`. */
  url: string
  /** Stops accepting, closes every session and the server. */
  close(): Promise<void>
}

/** Options of `serveHttp`: the host's, and what the HTTP side accepts and keeps. */
export interface HttpOptions extends McpHostOptions {
  /**
   * More `Host` header values to answer, besides the loopback names and addresses and the
   * bound address (each with the server's port): `name` (any port) or `name:port`, an IPv6
   * address in brackets. Their http(s) origins are accepted too.
   */
  allowedHosts?: readonly string[]
  /** More `Origin` header values to accept, e.g. `http://localhost:5173`. */
  allowedOrigins?: readonly string[]
  /**
   * Serve on an address that is not loopback (`0.0.0.0`, a LAN address, a host name). Without
   * it `serveHttp` refuses such an address: the server has no authentication, so anyone who can
   * reach it could call every tool. With it, a warning says so.
   */
  allowRemote?: boolean
  /** Sessions open at once (default 100); an initialize past it is answered 503. */
  maxSessions?: number
  /**
   * A session that had no request, and no request or stream still open, for this many ms is
   * closed (default 900000, 15 minutes); its client must initialize again.
   */
  idleTimeoutMs?: number
  /**
   * Bytes that may wait, unread by the client, on one response stream (default 1 MiB): past
   * it, the progress notifications of that response's calls are dropped until the client has
   * read it down again. The results and the requests to the client are always sent.
   */
  maxPendingBytes?: number
}

const DEFAULT_MAX_SESSIONS = 100
const DEFAULT_IDLE_MS = 15 * 60_000
const DEFAULT_MAX_PENDING = 1024 * 1024
/** What the SDK's SSE framing adds to a message's JSON (`event: message\ndata: ` and `\n\n`). */
const SSE_FRAMING = 23

/** The outbox of the POST being handled, seen by the transport's message handler it leads to. */
const requestOutbox = new AsyncLocalStorage<Outbox | undefined>()

/** One session over HTTP: its transport, the responses its requests wait on, its idle clock. */
interface Live {
  session: McpSession
  transport: StreamableHTTPServerTransport
  /** The response that carries each request being answered, by its JSON-RPC id. */
  answering: Map<RequestId, Outbox>
  /** HTTP exchanges of this session still open (a call's response, the GET stream). */
  open: number
  timer?: NodeJS.Timeout
  ended: boolean
}

/** Serves `ctx`'s tools over Streamable HTTP on `host:port`; resolves once it listens. */
export async function serveHttp(ctx: Context, address: { host: string, port: number }, options: HttpOptions = {}): Promise<HttpServing> {
  const logger = ctx.logger('mcp-serve')
  const remote = !isLoopback(address.host)
  if (remote && !options.allowRemote) {
    throw new Error(`${address.host} is not a loopback address, and the server has no authentication: anyone who can reach it could call every tool. ` +
      'Serve on 127.0.0.1, or allow it (allowRemote; rein mcp serve --allow-remote) behind something that authenticates')
  }
  // Checked once now, so a wrong entry fails before anything listens.
  requestCheck(address.host, 0, options)
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_MS
  const maxPending = options.maxPendingBytes ?? DEFAULT_MAX_PENDING
  const host = createMcpHost(ctx, options)
  const live = new Map<string, Live>()
  let check: ReturnType<typeof requestCheck> = () => 'not listening yet'

  /** Hands one request of `entry`'s session to its transport; the idle clock runs while none is open. */
  const exchange = async (entry: Live, req: IncomingMessage, res: ServerResponse) => {
    clearTimeout(entry.timer)
    entry.open++
    res.once('close', () => {
      if (--entry.open > 0 || entry.ended) return
      entry.timer = setTimeout(() => {
        if (entry.open === 0 && !entry.ended) void entry.transport.close().catch(() => {})
      }, idleMs).unref()
    })
    const outbox = req.method === 'POST' ? new Outbox(res) : undefined
    await requestOutbox.run(outbox, () => entry.transport.handleRequest(req, res))
  }

  /** Notes which response each request came in on, and drops progress for a response its client does not read. */
  const watch = (entry: Live) => {
    const { transport } = entry
    const deliver = transport.onmessage
    transport.onmessage = (message, extra) => {
      const outbox = requestOutbox.getStore()
      if (outbox && isJSONRPCRequest(message)) entry.answering.set(message.id, outbox)
      deliver?.(message, extra)
    }
    const send = transport.send.bind(transport)
    transport.send = async (message, sendOptions) => {
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
        // The last message of its request: nothing of it is counted any more.
        if (message.id !== undefined) entry.answering.delete(message.id)
        return send(message, sendOptions)
      }
      const requestId = sendOptions?.relatedRequestId
      const outbox = requestId === undefined ? undefined : entry.answering.get(requestId)
      if (outbox) {
        if ('method' in message && message.method === 'notifications/progress' && outbox.pending > maxPending) {
          if (!outbox.warned) {
            outbox.warned = true
            logger.warn(`the client of MCP session ${entry.session.id} is not reading the response to request ${String(requestId)} ` +
              `(over ${maxPending} bytes wait): its progress notifications are dropped until it does; the result will be sent`)
          }
          return
        }
        outbox.queued += Buffer.byteLength(JSON.stringify(message)) + SSE_FRAMING
      }
      return send(message, sendOptions)
    }
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const origin = req.headers.origin
    const refused = check(req.headers.host, typeof origin === 'string' ? origin : undefined)
    if (refused) return reply(res, 403, refused)
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') return reply(res, 404, 'not found: the MCP endpoint is /mcp')
    const id = req.headers['mcp-session-id']
    if (typeof id === 'string') {
      const entry = live.get(id)
      if (!entry) return reply(res, 404, `unknown MCP session "${id}"; initialize a new one`)
      return exchange(entry, req, res)
    }
    if (req.method !== 'POST') return reply(res, 400, 'no Mcp-Session-Id header: start with an initialize request (POST)')
    if (host.sessions.size >= maxSessions) {
      return reply(res, 503, `this server has ${maxSessions} MCP sessions open, as many as it keeps; ` +
        'end one (DELETE) or wait until an idle one is closed, then initialize again')
    }
    const session = host.open(randomUUID())
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => session.id,
      onsessioninitialized: (sessionId) => { live.set(sessionId, entry) },
      maxRequestBodySize: 4 * 1024 * 1024,
    })
    const entry: Live = { session, transport, answering: new Map(), open: 0, ended: false }
    transport.onclose = () => {
      entry.ended = true
      clearTimeout(entry.timer)
      live.delete(session.id)
      void host.close(session)
    }
    await session.server.connect(transport)
    watch(entry)
    await exchange(entry, req, res)
    // Not an initialize (the transport said so): nothing to keep.
    if (!live.has(session.id)) {
      entry.ended = true
      clearTimeout(entry.timer)
      await host.close(session)
    }
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
  check = requestCheck(address.host, port, options)
  const shown = address.host.includes(':') ? `[${address.host}]` : address.host
  if (remote) {
    logger.warn(`serving on ${shown}:${port}, which is not a loopback address: anyone who can reach it can call every tool, ` +
      'with no authentication; put something that authenticates in front of it')
  }
  return {
    url: `http://${shown}:${port}/mcp`,
    async close() {
      await host.dispose()
      await Promise.all([...live.values()].map((entry) => entry.transport.close().catch(() => {})))
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
