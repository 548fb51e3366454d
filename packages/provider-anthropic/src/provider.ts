/**
 * `createProvider(config)`: a rein Provider over the Anthropic Messages API. The config is
 * validated once, here. This file says what is particular to the wire — `<baseURL>/v1/messages`,
 * the `x-api-key` credential and `anthropic-version`, which answers retry (408, 409, 429, 5xx
 * and 529, unless the server's `x-should-retry` says otherwise), the `request-id` header — and
 * the kit does the rest: the POST with retries, SSE, and `stream`/`generate`.
 */
import type { GenerateRequest, Provider } from '@rein/kernel'
import { answers, NETWORK_FACTS, transientStatus, type AnswerEvent, type Endpoint, type HttpDeps } from '@rein/provider-kit'
import { classifyHttpError, type AnthropicSite } from './classify.js'
import { resolveConfig, type AnthropicProviderConfig, type ResolvedConfig } from './config.js'
import { MessageAssembler } from './stream-assembler.js'
import { buildRequest } from './wire-request.js'
import { parseMessage, type AnthropicAssistantMessage } from './wire-response.js'

/** A streamed event whose final message carries `finishReason` (the `stop_reason`). */
export type AnthropicStreamEvent = AnswerEvent<AnthropicAssistantMessage>

/** The provider, with the model and server it talks to (for display). */
export interface AnthropicProvider extends Provider {
  readonly model: string
  /** The server root requests go to (`<baseURL>/v1/messages`). */
  readonly baseURL: string
  generate(req: GenerateRequest): Promise<AnthropicAssistantMessage>
  stream(req: GenerateRequest): AsyncIterable<AnthropicStreamEvent>
}

/** The request site of a config, for error messages; a network error's cause keeps its network facts only. */
export function siteOf(config: ResolvedConfig): AnthropicSite {
  const credentials = config.apiKey === undefined ? 'headers' : 'apiKey'
  return { baseURL: config.baseURL, model: config.model, redact: config.redact, credentials, keepInCause: NETWORK_FACTS }
}

/** The statuses the official SDK retries: 408, 409, 429 and every 5xx (529 "overloaded" included). */
function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || transientStatus(status)
}

/** Where and how requests go. */
function endpointOf(config: ResolvedConfig, site: AnthropicSite): Endpoint {
  return {
    url: config.endpoint,
    shownURL: config.endpoint,
    headers: { 'anthropic-version': config.anthropicVersion, ...(config.apiKey === undefined ? {} : { 'x-api-key': config.apiKey }) },
    configuredHeaders: config.headers,
    site,
    retry: { ...config, retryableStatus, honourShouldRetry: true },
    requestIdHeader: 'request-id',
    classify: (failure) => classifyHttpError(failure, site),
    idleTimeoutMs: config.idleTimeoutMs,
  }
}

/**
 * Builds the provider. Runs once, when a harness is set up; throws `ProviderConfigError` for a
 * bad config. `deps` replaces fetch, the clock, the dice or the sleep (tests only).
 */
export function createProvider(config: AnthropicProviderConfig, deps: Partial<HttpDeps> = {}): AnthropicProvider {
  const resolved = resolveConfig(config)
  const site = siteOf(resolved)
  return {
    model: resolved.model,
    baseURL: resolved.baseURL,
    ...answers({
      endpoint: endpointOf(resolved, site),
      stream: resolved.stream,
      body: (req, stream) => buildRequest(resolved, req, stream),
      parse: (text) => parseMessage(text, site),
      assembler: () => new MessageAssembler(site),
    }, deps),
  }
}
