/**
 * `createProvider(config)`: a rein Provider over the Chat Completions wire protocol. The config
 * is validated once, here. This file says what is particular to the wire — where requests go,
 * the `Authorization: Bearer` credential, which statuses retry (429 and 5xx) — and the kit does
 * the rest: the POST with retries, SSE, and `stream`/`generate` (deltas, then one message).
 */
import type { AssistantMessage, GenerateRequest, Provider, StreamEvent } from '@rein/kernel'
import { answers, transientStatus, type Endpoint, type HttpDeps } from '@rein/provider-kit'
import { classifyHttpError, type OpenAISite } from './classify.js'
import { resolveConfig, type OpenAIProviderConfig, type ResolvedConfig } from './config.js'
import { StreamAssembler } from './stream-assembler.js'
import { buildRequest } from './wire-request.js'
import { parseCompletion } from './wire-response.js'

/** The provider, with the model and server it talks to (for display). */
export interface OpenAIProvider extends Provider {
  readonly model: string
  /** The base URL as messages show it: secret query values replaced by `[REDACTED]`. */
  readonly baseURL: string
  generate(req: GenerateRequest): Promise<AssistantMessage>
  stream(req: GenerateRequest): AsyncIterable<StreamEvent>
}

/** The request site of a config, for error messages. */
export function siteOf(config: ResolvedConfig): OpenAISite {
  return { baseURL: config.baseURL, model: config.model, redact: config.redact, credentials: config.credentials }
}

/** Where and how requests go: `Authorization` only when there is an apiKey; 429 and 5xx retried. */
function endpointOf(config: ResolvedConfig, site: OpenAISite): Endpoint {
  return {
    url: config.endpoint,
    shownURL: config.shownEndpoint,
    headers: config.apiKey === undefined ? {} : { authorization: `Bearer ${config.apiKey}` },
    configuredHeaders: config.headers,
    site,
    retry: { ...config, retryableStatus: transientStatus },
    classify: (failure) => classifyHttpError(failure, site),
    idleTimeoutMs: config.idleTimeoutMs,
  }
}

/**
 * Builds the provider. Runs once, when a harness is set up; throws `ProviderConfigError` for a
 * bad config. `deps` replaces fetch, the clock, the dice or the sleep (tests only).
 */
export function createProvider(config: OpenAIProviderConfig, deps: Partial<HttpDeps> = {}): OpenAIProvider {
  const resolved = resolveConfig(config)
  const site = siteOf(resolved)
  return {
    model: resolved.model,
    baseURL: resolved.baseURL,
    ...answers({
      endpoint: endpointOf(resolved, site),
      stream: resolved.stream,
      body: (req, stream) => buildRequest(resolved, req, stream),
      parse: (text) => parseCompletion(text, site),
      assembler: () => new StreamAssembler(site),
    }, deps),
  }
}
