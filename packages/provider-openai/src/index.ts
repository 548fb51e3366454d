/**
 * `@rein/provider-openai`: a rein Provider for the Chat Completions wire protocol, as served by
 * DeepSeek, OpenAI and compatible servers, on Node's global `fetch`.
 *
 *   const provider = createProvider({ model: 'deepseek-chat', apiKey: process.env.DEEPSEEK_API_KEY! })
 */
export { createProvider, type OpenAIProvider } from './provider.js'
export { DEFAULT_BASE_URL, type OpenAIProviderConfig } from './config.js'
export * from './codes.js'
export {
  ProviderError, ProviderConfigError, ProviderAuthError, ProviderModelNotFoundError,
  ProviderContextLengthError, ProviderBadRequestError, ProviderRateLimitedError,
  ProviderUnavailableError, ProviderStreamInterruptedError, ProviderBadResponseError,
  ProviderAbortedError, type ProviderErrorOptions,
} from './errors.js'
export type { HttpDeps } from './http.js'
export { PUBLIC_HEADERS, MIN_ANYWHERE_LENGTH } from './secrets.js'
export { PUBLIC_QUERY_PARAMS } from './base-url.js'
