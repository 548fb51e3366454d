/**
 * `@rein/provider-anthropic`: a rein Provider for the Anthropic Messages API (streamed text,
 * parallel `tool_use`, `tool_result` blocks), on Node's global `fetch`, without the SDK. Its
 * errors, codes and redaction are `@rein/provider-kit`'s, re-exported here so that callers need one import.
 *
 *   const provider = createProvider({ model: 'claude-sonnet-4-5', maxTokens: 4096, apiKey: process.env.ANTHROPIC_API_KEY! })
 */
export { createProvider, type AnthropicProvider, type AnthropicStreamEvent } from './provider.js'
export { DEFAULT_BASE_URL, DEFAULT_ANTHROPIC_VERSION, type AnthropicProviderConfig } from './config.js'
export type { AnthropicAssistantMessage, StopReason } from './wire-response.js'
export {
  ProviderCodes, PROVIDER_CONFIG, PROVIDER_AUTH, PROVIDER_MODEL_NOT_FOUND, PROVIDER_CONTEXT_LENGTH, PROVIDER_BAD_REQUEST,
  PROVIDER_RATE_LIMITED, PROVIDER_UNAVAILABLE, PROVIDER_STREAM_INTERRUPTED, PROVIDER_BAD_RESPONSE, PROVIDER_ABORTED,
  ProviderError, ProviderConfigError, ProviderAuthError, ProviderModelNotFoundError, ProviderContextLengthError,
  ProviderBadRequestError, ProviderRateLimitedError, ProviderUnavailableError, ProviderStreamInterruptedError,
  ProviderBadResponseError, ProviderAbortedError, MIN_ANYWHERE_LENGTH,
  type ProviderCode, type ProviderErrorOptions, type HttpDeps,
} from '@rein/provider-kit'
