/**
 * `createProvider(config)`: a rein Provider over the Chat Completions wire protocol. The config
 * is validated once, here; each request builds its body, posts it with retries, and turns the
 * answer into an `AssistantMessage`. `stream` yields text deltas then exactly one `message`
 * event; `generate` resolves to that same message. Every failure is a `ProviderError`.
 */
import type { AssistantMessage, GenerateRequest, Provider, StreamEvent } from '@rein/kernel'
import { resolveConfig, type OpenAIProviderConfig, type ResolvedConfig } from './config.js'
import { abortedError } from './errors.js'
import { defaultDeps, postWithRetries, siteOf, type HttpDeps } from './http.js'
import { parseSSE } from './sse.js'
import { StreamAssembler } from './stream-assembler.js'
import { buildRequest } from './wire-request.js'
import { parseCompletion } from './wire-response.js'

/** The provider, with the model and server it talks to (for display). */
export interface OpenAIProvider extends Provider {
  readonly model: string
  /** The base URL as messages show it: secret query values replaced by `[redacted]`. */
  readonly baseURL: string
  generate(req: GenerateRequest): Promise<AssistantMessage>
  stream(req: GenerateRequest): AsyncIterable<StreamEvent>
}

async function readAll(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder('utf-8')
  let text = ''
  for await (const chunk of chunks) text += decoder.decode(chunk, { stream: true })
  return text + decoder.decode()
}

/** One non-streamed request. */
async function complete(config: ResolvedConfig, req: GenerateRequest, deps: HttpDeps): Promise<AssistantMessage> {
  const { chunks } = await postWithRetries(config, buildRequest(config, req, false), false, req.signal, deps)
  return parseCompletion(await readAll(chunks), siteOf(config))
}

/** One streamed request; a JSON (or HTML) body is parsed whole: the server ignored `stream`, or is not an API. */
async function* streamed(config: ResolvedConfig, req: GenerateRequest, deps: HttpDeps): AsyncGenerator<StreamEvent> {
  const { response, chunks } = await postWithRetries(config, buildRequest(config, req, true), true, req.signal, deps)
  const type = response.headers.get('content-type') ?? ''
  if (type.includes('application/json') || type.includes('text/html')) {
    yield* whole(parseCompletion(await readAll(chunks), siteOf(config)))
    return
  }
  const assembler = new StreamAssembler(siteOf(config))
  for await (const data of parseSSE(chunks)) {
    if (req.signal?.aborted) throw abortedError(req.signal)
    const text = assembler.push(data)
    if (text !== '') yield { type: 'text-delta', text }
    if (assembler.isDone) break
  }
  yield { type: 'message', message: assembler.finish() }
}

/** The events of an answer that arrived whole: its text as one delta, then the message. */
function* whole(message: AssistantMessage): Generator<StreamEvent> {
  if (message.content !== '') yield { type: 'text-delta', text: message.content }
  yield { type: 'message', message }
}

/**
 * Builds the provider. Runs once, when a harness is set up; throws `ProviderConfigError` for a
 * bad config. `deps` replaces fetch, the clock, the dice or the sleep (tests only).
 */
export function createProvider(config: OpenAIProviderConfig, deps: Partial<HttpDeps> = {}): OpenAIProvider {
  const resolved = resolveConfig(config)
  const io: HttpDeps = { ...defaultDeps, ...deps }
  const stream = (req: GenerateRequest): AsyncIterable<StreamEvent> => (resolved.stream
    ? streamed(resolved, req, io)
    : (async function* () { yield* whole(await complete(resolved, req, io)) })())
  return {
    model: resolved.model,
    baseURL: resolved.baseURL,
    stream,
    async generate(req) {
      if (!resolved.stream) return complete(resolved, req, io)
      for await (const event of streamed(resolved, req, io)) if (event.type === 'message') return event.message
      throw new Error('unreachable: a finished stream always ends with a message event')
    },
  }
}
