/**
 * `@rein/provider-anthropic`: a rein Provider for the Anthropic Messages API (streamed text,
 * parallel `tool_use`, `tool_result` blocks), on Node's global `fetch`, without the SDK.
 *
 *   const provider = createProvider({ model: 'claude-sonnet-4-5', maxTokens: 4096, apiKey: process.env.ANTHROPIC_API_KEY! })
 */
export { createProvider, type AnthropicProvider, type AnthropicStreamEvent } from './provider.js'
export { DEFAULT_BASE_URL, DEFAULT_ANTHROPIC_VERSION, type AnthropicProviderConfig } from './config.js'
export type { AnthropicAssistantMessage, StopReason } from './wire-response.js'
export * from './codes.js'
export {
  ProviderError, ProviderConfigError, ProviderAuthError, ProviderModelNotFoundError,
  ProviderContextLengthError, ProviderBadRequestError, ProviderRateLimitedError,
  ProviderUnavailableError, ProviderStreamInterruptedError, ProviderBadResponseError,
  ProviderAbortedError, type ProviderErrorOptions,
} from './errors.js'
export type { HttpDeps } from './http.js'
export { MIN_ANYWHERE_LENGTH } from './secrets.js'
