/**
 * `startHttpFixture(answer)`: a real HTTP server on 127.0.0.1 for testing a provider against
 * its wire protocol. Every request is recorded (method, path, headers, body parsed as JSON when
 * it is JSON) and answered with what `answer` returns. A body given as several pieces is
 * written piece by piece, a macrotask apart, so the client sees chunk boundaries where the test
 * put them (inside an SSE event, inside a UTF-8 character). A reply can also stay silent, hang
 * after its body, or cut the connection; `close()` ends every connection it still holds.
 */
import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What the server saw of one request. */
export interface FixtureRequest {
  method: string
  /** The path and query, e.g. `/v1/messages`. */
  path: string
  headers: IncomingHttpHeaders
  /** The body parsed as JSON, or its text when it is not JSON. */
  body: any
}

/** How the server answers one request. */
export type FixtureReply =
  | {
    /** Default 200. */
    status?: number
    headers?: Record<string, string>
    /** One piece, or pieces written one at a time (each its own write, a macrotask apart). */
    body?: string | Uint8Array | readonly (string | Uint8Array)[]
    /** After the body: end the response (default), keep it open, or cut the connection. */
    then?: 'end' | 'hang' | 'destroy'
  }
  /** Read the request, never answer (until the client leaves or the fixture closes). */
  | { silent: true }
  /** Cut the connection without answering (a reset before any response). */
  | { destroy: true }

/** Chooses the reply to the n-th request (0-based). */
export type FixtureAnswer = (request: FixtureRequest, index: number) => FixtureReply | Promise<FixtureReply>

/** A running fixture. */
export interface HttpFixture {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string
  /** Every request so far, in arrival order. */
  requests: FixtureRequest[]
  close(): Promise<void>
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

async function send(res: ServerResponse, reply: Exclude<FixtureReply, { silent: true } | { destroy: true }>): Promise<void> {
  res.writeHead(reply.status ?? 200, reply.headers)
  const body = reply.body
  const pieces = body === undefined ? [] : typeof body === 'string' || body instanceof Uint8Array ? [body] : body
  // Headers go out at once, so that a reply cut before its body is cut after the headers.
  res.flushHeaders()
  for (const [i, piece] of pieces.entries()) {
    if (res.destroyed) return
    if (i > 0) await tick()
    res.write(piece)
  }
  if (reply.then === 'hang') return
  if (reply.then === 'destroy') { await tick(); res.socket?.destroy(); return }
  res.end()
}

/** Starts the server on an ephemeral port of 127.0.0.1. */
export async function startHttpFixture(answer: FixtureAnswer): Promise<HttpFixture> {
  const requests: FixtureRequest[] = []
  const server = createServer(async (req, res) => {
    let text = ''
    req.setEncoding('utf8')
    for await (const chunk of req) text += chunk
    let body: unknown = text
    try { body = JSON.parse(text) } catch { /* kept as text */ }
    const request: FixtureRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body }
    const index = requests.push(request) - 1
    let reply: FixtureReply
    try {
      reply = await answer(request, index)
    } catch (error) {
      res.writeHead(599, { 'content-type': 'text/plain' })
      res.end(`the fixture's answer function threw: ${error instanceof Error ? error.message : String(error)}`)
      return
    }
    if ('silent' in reply) return
    if ('destroy' in reply) { req.socket.destroy(); return }
    await send(res, reply)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}

/**
 * Fixture servers started by one test file: `serve(answer)` starts one (the answer gets the
 * request's index), `closeAll()` (for an `afterEach`) closes every server started so far.
 */
export function fixtureServers() {
  let servers: HttpFixture[] = []
  return {
    async serve(answer: (index: number) => FixtureReply | Promise<FixtureReply>): Promise<HttpFixture> {
      const server = await startHttpFixture((_, index) => answer(index))
      servers.push(server)
      return server
    },
    async closeAll(): Promise<void> {
      const closing = servers
      servers = []
      await Promise.all(closing.map((server) => server.close()))
    },
  }
}
