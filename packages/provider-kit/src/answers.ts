/**
 * The two ways a provider answers, built from its wire format: `stream(req)` yields text deltas
 * as they arrive, then exactly one `message` event; `generate(req)` resolves to that same message.
 * A non-streamed answer is replayed as one delta (when it has text) and the message. A streamed
 * request that the server answers with JSON or HTML (it ignored `stream`, or is not the API) is
 * read whole. A body read whole may be at most `MAX_BODY_BYTES`, one event `MAX_SSE_EVENT_SIZE`
 * characters; past that reading stops with `ProviderBadResponseError`. The request's signal is
 * checked between events; every failure is a `ProviderError`.
 */
import type { AssistantMessage, GenerateRequest } from '@rein/kernel'
import { abortedError, ProviderBadResponseError } from './errors.js'
import { defaultDeps, postWithRetries, type Endpoint, type HttpDeps } from './http.js'
import { MAX_BODY_BYTES, sizeText } from './limits.js'
import { parseSSE, type SSEEvent, type SSELimits } from './sse.js'
import { failWith } from './site.js'

/** A streamed event whose final message is the provider's own message type. */
export type AnswerEvent<M extends AssistantMessage = AssistantMessage> =
  | { type: 'text-delta', text: string }
  | { type: 'message', message: M }

/** Accumulates one streamed answer. */
export interface Assembler<M extends AssistantMessage> {
  /** Feeds one event; returns the text it adds (possibly empty). Throws a `ProviderError` for an error event. */
  push(event: SSEEvent): string
  /** True once the wire's end-of-answer event arrived; reading stops there. */
  readonly isDone: boolean
  /** The complete message; throws `ProviderStreamInterruptedError` when the answer never finished. */
  finish(): M
}

/** What a provider brings: where it posts, and its wire format both ways. */
export interface Wire<M extends AssistantMessage> {
  endpoint: Endpoint
  /** Ask for server-sent events (the config's `stream`). */
  stream: boolean
  /** The request body of one generation. */
  body(req: GenerateRequest, stream: boolean): unknown
  /** The body text of an answer that arrived whole -> the message. */
  parse(text: string): M
  /** A fresh assembler for one streamed answer. */
  assembler(): Assembler<M>
}

/** The provider's `stream` and `generate`. */
export interface Answers<M extends AssistantMessage> {
  stream(req: GenerateRequest): AsyncIterable<AnswerEvent<M>>
  generate(req: GenerateRequest): Promise<M>
}

/** The whole body as text; fails, and stops reading, once it grows past `MAX_BODY_BYTES`. */
async function readAll(chunks: AsyncIterable<Uint8Array>, endpoint: Endpoint): Promise<string> {
  const decoder = new TextDecoder('utf-8')
  const parts: string[] = []
  let size = 0
  for await (const chunk of chunks) {
    size += chunk.byteLength
    if (size > MAX_BODY_BYTES) {
      throw failWith(endpoint.site, ProviderBadResponseError, `the answer from ${endpoint.shownURL} is larger than ${sizeText(MAX_BODY_BYTES)}, far more than any model answer; reading stopped there`)
    }
    parts.push(decoder.decode(chunk, { stream: true }))
  }
  parts.push(decoder.decode())
  return parts.join('')
}

/** The event limit of a streamed answer, failing as a bad response of `endpoint`. */
function eventLimits(endpoint: Endpoint): SSELimits {
  return {
    tooLarge: (limit) => failWith(endpoint.site, ProviderBadResponseError, `${endpoint.shownURL} sent a server-sent event larger than ${sizeText(limit)}, far more than any model answer; reading stopped there`),
  }
}

/** The events of an answer that arrived whole: its text as one delta, then the message. */
function* whole<M extends AssistantMessage>(message: M): Generator<AnswerEvent<M>> {
  if (message.content !== '') yield { type: 'text-delta', text: message.content }
  yield { type: 'message', message }
}

/** `stream` and `generate` over `wire`. `deps` replaces fetch, the clock, the dice or the sleep (tests only). */
export function answers<M extends AssistantMessage>(wire: Wire<M>, deps: Partial<HttpDeps> = {}): Answers<M> {
  const io: HttpDeps = { ...defaultDeps, ...deps }

  async function complete(req: GenerateRequest): Promise<M> {
    const { chunks } = await postWithRetries(wire.endpoint, wire.body(req, false), false, req.signal, io)
    return wire.parse(await readAll(chunks, wire.endpoint))
  }

  async function* streamed(req: GenerateRequest): AsyncGenerator<AnswerEvent<M>> {
    const { response, chunks } = await postWithRetries(wire.endpoint, wire.body(req, true), true, req.signal, io)
    const type = response.headers.get('content-type') ?? ''
    if (type.includes('application/json') || type.includes('text/html')) {
      yield* whole(wire.parse(await readAll(chunks, wire.endpoint)))
      return
    }
    const assembler = wire.assembler()
    for await (const event of parseSSE(chunks, eventLimits(wire.endpoint))) {
      if (req.signal?.aborted) throw abortedError(req.signal)
      const text = assembler.push(event)
      if (text !== '') yield { type: 'text-delta', text }
      if (assembler.isDone) break
    }
    yield { type: 'message', message: assembler.finish() }
  }

  return {
    stream: (req) => (wire.stream ? streamed(req) : (async function* () { yield* whole(await complete(req)) })()),
    async generate(req) {
      if (!wire.stream) return complete(req)
      for await (const event of streamed(req)) if (event.type === 'message') return event.message
      throw new Error('unreachable: a finished stream always ends with a message event')
    },
  }
}
