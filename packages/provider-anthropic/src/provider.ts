/**
 * `createProvider(config)`: a rein Provider over the Anthropic Messages API. The config is
 * validated once, here; each request builds its body, posts it with retries, and turns the
 * answer into a message. `stream` yields text deltas then exactly one `message` event;
 * `generate` resolves to that same message. Every failure is a `ProviderError`.
 */
import type { GenerateRequest, Provider } from '@rein/kernel'
import { resolveConfig, type AnthropicProviderConfig, type ResolvedConfig } from './config.js'
import { abortedError } from './errors.js'
import { defaultDeps, postWithRetries, siteOf, type HttpDeps } from './http.js'
import { parseSSE } from './sse.js'
import { MessageAssembler } from './stream-assembler.js'
import { buildRequest } from './wire-request.js'
import { parseMessage, type AnthropicAssistantMessage } from './wire-response.js'

/** A streamed event whose final message carries `stopReason`. */
export type AnthropicStreamEvent =
  | { type: 'text-delta', text: string }
  | { type: 'message', message: AnthropicAssistantMessage }

/** The provider, with the model and server it talks to (for display). */
export interface AnthropicProvider extends Provider {
  readonly model: string
  /** The server root requests go to (`<baseURL>/v1/messages`). */
  readonly baseURL: string
  generate(req: GenerateRequest): Promise<AnthropicAssistantMessage>
  stream(req: GenerateRequest): AsyncIterable<AnthropicStreamEvent>
}

async function readAll(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder('utf-8')
  let text = ''
  for await (const chunk of chunks) text += decoder.decode(chunk, { stream: true })
  return text + decoder.decode()
}

/** One non-streamed request. */
async function complete(config: ResolvedConfig, req: GenerateRequest, deps: HttpDeps): Promise<AnthropicAssistantMessage> {
  const { chunks } = await postWithRetries(config, buildRequest(config, req, false), false, req.signal, deps)
  return parseMessage(await readAll(chunks), siteOf(config))
}

/** One streamed request. A JSON or HTML body is read whole: the server ignored `stream`, or is not the API. */
async function* streamed(config: ResolvedConfig, req: GenerateRequest, deps: HttpDeps): AsyncGenerator<AnthropicStreamEvent> {
  const { response, chunks } = await postWithRetries(config, buildRequest(config, req, true), true, req.signal, deps)
  const type = response.headers.get('content-type') ?? ''
  if (type.includes('application/json') || type.includes('text/html')) {
    yield* whole(parseMessage(await readAll(chunks), siteOf(config)))
    return
  }
  const assembler = new MessageAssembler(siteOf(config))
  for await (const event of parseSSE(chunks)) {
    if (req.signal?.aborted) throw abortedError(req.signal)
    const text = assembler.push(event)
    if (text !== '') yield { type: 'text-delta', text }
    if (assembler.isDone) break
  }
  yield { type: 'message', message: assembler.finish() }
}

/** The events of an answer that arrived whole: its text as one delta, then the message. */
function* whole(message: AnthropicAssistantMessage): Generator<AnthropicStreamEvent> {
  if (message.content !== '') yield { type: 'text-delta', text: message.content }
  yield { type: 'message', message }
}

/**
 * Builds the provider. Runs once, when a harness is set up; throws `ProviderConfigError` for a
 * bad config. `deps` replaces fetch, the clock, the dice or the sleep (tests only).
 */
export function createProvider(config: AnthropicProviderConfig, deps: Partial<HttpDeps> = {}): AnthropicProvider {
  const resolved = resolveConfig(config)
  const io: HttpDeps = { ...defaultDeps, ...deps }
  return {
    model: resolved.model,
    baseURL: resolved.baseURL,
    stream: (req) => (resolved.stream
      ? streamed(resolved, req, io)
      : (async function* () { yield* whole(await complete(resolved, req, io)) })()),
    async generate(req) {
      if (!resolved.stream) return complete(resolved, req, io)
      for await (const event of streamed(resolved, req, io)) if (event.type === 'message') return event.message
      throw new Error('unreachable: a finished stream always ends with a message event')
    },
  }
}
