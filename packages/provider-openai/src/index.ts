/**
 * `@rein/provider-openai`: a rein Provider for the Chat Completions wire protocol, as served by
 * DeepSeek, OpenAI and compatible servers, on Node's global `fetch`. Its errors, codes and
 * redaction are `@rein/provider-kit`'s, re-exported here so that callers need one import.
 *
 *   const provider = createProvider({ model: 'deepseek-chat', apiKey: process.env.DEEPSEEK_API_KEY! })
 */
export { createProvider, type OpenAIProvider } from './provider.js'
export { DEFAULT_BASE_URL, type OpenAIProviderConfig } from './config.js'
export {
  ProviderCodes, PROVIDER_CONFIG, PROVIDER_AUTH, PROVIDER_MODEL_NOT_FOUND, PROVIDER_CONTEXT_LENGTH, PROVIDER_BAD_REQUEST,
  PROVIDER_RATE_LIMITED, PROVIDER_UNAVAILABLE, PROVIDER_STREAM_INTERRUPTED, PROVIDER_BAD_RESPONSE, PROVIDER_ABORTED,
  ProviderError, ProviderConfigError, ProviderAuthError, ProviderModelNotFoundError, ProviderContextLengthError,
  ProviderBadRequestError, ProviderRateLimitedError, ProviderUnavailableError, ProviderStreamInterruptedError,
  ProviderBadResponseError, ProviderAbortedError, MIN_ANYWHERE_LENGTH,
  type ProviderCode, type ProviderErrorOptions, type HttpDeps,
} from '@rein/provider-kit'
export { PUBLIC_HEADERS } from './secrets.js'
export { PUBLIC_QUERY_PARAMS } from './base-url.js'
