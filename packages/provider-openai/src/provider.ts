/**
 * `createProvider(config)`: a rein Provider over the Chat Completions wire protocol. The config
 * is validated once, here. This file says what is particular to the wire — where requests go,
 * the `Authorization: Bearer` credential, which statuses retry (429 and 5xx) — and the kit does
 * the rest (`wireProvider`): the POST with retries, SSE, and `stream`/`generate` (deltas, then
 * one message).
 */
import type { AssistantMessage } from '@rein/kernel'
import { transientStatus, wireProvider, type HttpDeps, type WireFormat, type WireProvider, type WireTarget } from '@rein/provider-kit'
import { classifyHttpError, type OpenAISite } from './classify.js'
import { resolveConfig, type OpenAIProviderConfig, type ResolvedConfig } from './config.js'
import { StreamAssembler } from './stream-assembler.js'
import { buildRequest } from './wire-request.js'
import { parseCompletion } from './wire-response.js'

/**
 * The provider, with the model and server it talks to (for display); its `baseURL` is the base
 * URL with secret query values replaced by `[REDACTED]`.
 */
export type OpenAIProvider = WireProvider<AssistantMessage>

/** The request site of a config, for error messages. */
export function siteOf(config: ResolvedConfig): OpenAISite {
  return { baseURL: config.baseURL, model: config.model, redact: config.redact, credentials: config.credentials }
}

/** The Chat Completions wire: `Authorization` only when there is an apiKey; 429 and 5xx retried. */
export const chatCompletions: WireFormat<ResolvedConfig, OpenAISite, AssistantMessage> = {
  site: siteOf,
  target: (config): WireTarget => ({
    url: config.endpoint,
    shownURL: config.shownEndpoint,
    headers: config.apiKey === undefined ? {} : { authorization: `Bearer ${config.apiKey}` },
  }),
  retry: { retryableStatus: transientStatus },
  classify: classifyHttpError,
  body: buildRequest,
  parse: parseCompletion,
  assembler: (site) => new StreamAssembler(site),
}

/**
 * Builds the provider. Runs once, when a harness is set up; throws `ProviderConfigError` for a
 * bad config. `deps` replaces fetch, the clock, the dice or the sleep (tests only).
 */
export function createProvider(config: OpenAIProviderConfig, deps: Partial<HttpDeps> = {}): OpenAIProvider {
  return wireProvider(resolveConfig(config), chatCompletions, deps)
}
