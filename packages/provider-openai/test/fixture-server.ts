/**
 * A Chat Completions server on 127.0.0.1 for tests: it answers each request with the next
 * scripted reply, read from the recorded files in `fixtures/`, and records every request
 * (method, path, headers, parsed body). Replies can also break the connection at chosen
 * moments: before the response, after the headers, or in the middle of an SSE body.
 * Like a careless real server, a reply can echo what it received: in a fixture, `{{apiKey}}`
 * is the bearer token, `{{header:<name>}}` a request header and `{{url}}` the request's path
 * and query (JSON-escaped inside JSON, as they are when a serializer writes them).
 */
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One scripted answer. */
export type Reply =
  /** A recorded JSON exchange `{ status, headers, body }`, its echoes filled in; `status` and `headers` override the file's. */
  | { json: string, status?: number, headers?: Record<string, string> }
  /** A recorded SSE body, its echoes filled in, then: end it (default), or keep it open (until `destroy()` or the client leaves). */
  | { sse: string, then?: 'end' | 'hang' }
  /** 200 with SSE headers flushed, then the socket destroyed before any byte of body. */
  | { dropAfterHeaders: true }
  /** The socket destroyed before any response. */
  | { dropBeforeResponse: true }

/** What the server saw of one request. */
export interface RecordedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: any
  /** Resolves when the client's connection for this request closed. */
  closed: Promise<void>
  /** Breaks the connection at once (a mid-stream disconnect). */
  destroy(): void
}

export interface FixtureServer {
  /** `http://127.0.0.1:<port>/v1`, to use as `baseURL`. */
  baseURL: string
  requests: RecordedRequest[]
  /** Appends replies to the script. */
  script(...replies: Reply[]): void
  /** Answers every request that finds the script empty with `choose(request)`. */
  otherwise(choose: (request: RecordedRequest) => Reply): void
  close(): Promise<void>
}

const fixtureDir = new URL('./fixtures/', import.meta.url)

/** The text of a fixture file. */
export function fixture(name: string): string {
  return readFileSync(new URL(name, fixtureDir), 'utf8')
}

/** Fills in `{{apiKey}}`, `{{header:<name>}}` and `{{url}}` from the request, each through `escape`. */
function echo(text: string, req: IncomingMessage, escape: (value: string) => string): string {
  const header = (name: string) => [req.headers[name] ?? ''].flat().join(', ')
  return text.replace(/\{\{(apiKey|url|header:[a-z0-9-]+)\}\}/g, (_, what: string) => escape(
    what === 'apiKey' ? header('authorization').replace(/^Bearer /, '')
      : what === 'url' ? req.url ?? ''
        : header(what.slice('header:'.length))))
}

const inJson = (value: string) => JSON.stringify(value).slice(1, -1)

function sendJson(res: ServerResponse, req: IncomingMessage, reply: Extract<Reply, { json: string }>): void {
  const recorded = JSON.parse(fixture(reply.json)) as { status: number, headers: Record<string, string>, body: unknown }
  const raw = typeof recorded.body === 'string' ? recorded.body : JSON.stringify(recorded.body)
  res.writeHead(reply.status ?? recorded.status, { ...recorded.headers, ...reply.headers })
  // Echoes inside a JSON body are JSON-escaped, as a server's serializer would write them.
  res.end(echo(raw, req, typeof recorded.body === 'string' ? (value) => value : inJson))
}

/** Starts a server on an ephemeral port of 127.0.0.1. Replies are consumed one per request. */
export async function startFixtureServer(...initial: Reply[]): Promise<FixtureServer> {
  const queue: Reply[] = [...initial]
  const requests: RecordedRequest[] = []
  let fallback: ((request: RecordedRequest) => Reply) | undefined
  const server = createServer(async (req, res) => {
    const closed = once(res, 'close').then(() => undefined)
    let text = ''
    for await (const chunk of req) text += chunk
    let body: unknown = text
    try { body = JSON.parse(text) } catch { /* recorded as text */ }
    const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, closed, destroy: () => req.socket.destroy() }
    requests.push(recorded)
    const reply = queue.shift() ?? fallback?.(recorded)
    if (reply === undefined) { res.writeHead(599, { 'content-type': 'text/plain' }); res.end('no scripted reply left'); return }
    if ('json' in reply) { sendJson(res, req, reply); return }
    if ('dropBeforeResponse' in reply) { req.socket.destroy(); return }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' })
    if ('dropAfterHeaders' in reply) { res.flushHeaders(); setImmediate(() => req.socket.destroy()); return }
    // Written in small slices so that events and UTF-8 characters straddle chunk boundaries.
    const bytes = Buffer.from(echo(fixture(reply.sse), req, inJson), 'utf8')
    for (let i = 0; i < bytes.length; i += 97) res.write(bytes.subarray(i, i + 97))
    if (reply.then !== 'hang') res.end()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...replies) => { queue.push(...replies) },
    otherwise: (choose) => { fallback = choose },
    close: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}
