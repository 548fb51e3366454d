/**
 * A scripted Chat Completions server on 127.0.0.1: the n-th `POST .../chat/completions`
 * gets the n-th step of the script (an answer, or a function of the request returning one),
 * streamed as server-sent events when the request asks for `stream`, else as one JSON
 * object. Every request is recorded, parsed, in arrival order. Past the script's end it
 * answers the text `done`. It lets rein run against `@rein/provider-openai` with no key.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { completion, streamEvents, type ChunkOptions, type ScriptedAnswer, type WireRequest } from './chat-wire.js'

/** One request as the server received it. */
export interface ReceivedRequest {
  path: string
  headers: IncomingHttpHeaders
  body: WireRequest
}

/** A step of the script: the answer, or a function of the request (and its index) returning it. */
export type ChatStep = ScriptedAnswer | ((request: ReceivedRequest, index: number) => ScriptedAnswer)

/** A running server. */
export interface ChatServer {
  /** The `baseURL` to give the provider, e.g. `http://127.0.0.1:40123/v1`. */
  baseURL: string
  /** Every chat request so far, in arrival order. */
  requests: ReceivedRequest[]
  /** Stops listening and drops open connections. */
  close(): Promise<void>
}

/** Starts the server on a free port of 127.0.0.1. The caller closes it. */
export async function startChatServer(steps: readonly ChatStep[], options: ChunkOptions = {}): Promise<ChatServer> {
  const requests: ReceivedRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const path = req.url ?? '/'
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        return sendError(res, 404, `no route for ${req.method} ${path}; this server answers POST /v1/chat/completions`)
      }
      let body: WireRequest
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as WireRequest
      } catch {
        return sendError(res, 400, 'the request body is not JSON')
      }
      const index = requests.length
      const request = { path, headers: req.headers, body }
      requests.push(request)
      let answer: ScriptedAnswer
      try {
        const step = steps[index] ?? { content: 'done' }
        answer = typeof step === 'function' ? step(request, index) : step
      } catch (error) {
        return sendError(res, 500, `script step ${index} failed: ${error instanceof Error ? error.message : String(error)}`)
      }
      const id = `chatcmpl-scripted-${index + 1}`
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end(JSON.stringify(completion(answer, body, id)))
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      for (const data of streamEvents(answer, body, id, options)) res.write(`data: ${data}\n\n`)
      res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    }),
  }
}

function sendError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', code: null } }))
}
