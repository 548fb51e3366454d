/**
 * `createProvider(config)`: a rein Provider over the Anthropic Messages API. The config is
 * validated once, here. This file says what is particular to the wire — `<baseURL>/v1/messages`,
 * the `x-api-key` credential and `anthropic-version`, which answers retry (408, 409, 429, 5xx
 * and 529, unless the server's `x-should-retry` says otherwise), the `request-id` header — and
 * the kit does the rest (`wireProvider`): the POST with retries, SSE, and `stream`/`generate`.
 */
import {
  NETWORK_FACTS, transientStatus, wireProvider, type AnswerEvent, type HttpDeps, type WireFormat, type WireProvider, type WireTarget,
} from '@rein/provider-kit'
import { classifyHttpError, type AnthropicSite } from './classify.js'
import { resolveConfig, type AnthropicProviderConfig, type ResolvedConfig } from './config.js'
import { MessageAssembler } from './stream-assembler.js'
import { buildRequest } from './wire-request.js'
import { parseMessage, type AnthropicAssistantMessage } from './wire-response.js'

/** A streamed event whose final message carries `finishReason` (the `stop_reason`). */
export type AnthropicStreamEvent = AnswerEvent<AnthropicAssistantMessage>

/**
 * The provider, with the model and server it talks to (for display); its `baseURL` is the
 * server root requests go to (`<baseURL>/v1/messages`).
 */
export type AnthropicProvider = WireProvider<AnthropicAssistantMessage>

/** The request site of a config, for error messages; a network error's cause keeps its network facts only. */
export function siteOf(config: ResolvedConfig): AnthropicSite {
  const credentials = config.apiKey === undefined ? 'headers' : 'apiKey'
  return { baseURL: config.baseURL, model: config.model, redact: config.redact, credentials, keepInCause: NETWORK_FACTS }
}

/** The statuses the official SDK retries: 408, 409, 429 and every 5xx (529 "overloaded" included). */
function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || transientStatus(status)
}

/** The Messages API wire. */
export const messages: WireFormat<ResolvedConfig, AnthropicSite, AnthropicAssistantMessage> = {
  site: siteOf,
  target: (config): WireTarget => ({
    url: config.endpoint,
    shownURL: config.endpoint,
    headers: { 'anthropic-version': config.anthropicVersion, ...(config.apiKey === undefined ? {} : { 'x-api-key': config.apiKey }) },
    requestIdHeader: 'request-id',
  }),
  retry: { retryableStatus, honourShouldRetry: true },
  classify: classifyHttpError,
  body: buildRequest,
  parse: parseMessage,
  assembler: (site) => new MessageAssembler(site),
}

/**
 * Builds the provider. Runs once, when a harness is set up; throws `ProviderConfigError` for a
 * bad config. `deps` replaces fetch, the clock, the dice or the sleep (tests only).
 */
export function createProvider(config: AnthropicProviderConfig, deps: Partial<HttpDeps> = {}): AnthropicProvider {
  return wireProvider(resolveConfig(config), messages, deps)
}
