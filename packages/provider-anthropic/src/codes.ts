/**
 * The catalogue of error codes. Every error this package throws is a `ProviderError` whose
 * `code` is one of these strings. They are the same strings `@rein/provider-openai` uses, so a
 * caller (the agent loop, a CLI, a retry policy) matches one catalogue whatever the provider.
 */

/** The config passed to `createProvider` is invalid; thrown at creation, never per request. */
export const PROVIDER_CONFIG = 'PROVIDER_CONFIG'
/** The server refused the credentials (HTTP 401 `authentication_error`, 403 `permission_error`). */
export const PROVIDER_AUTH = 'PROVIDER_AUTH'
/** The server does not know the model, or `baseURL` does not lead to a Messages API (HTTP 404). */
export const PROVIDER_MODEL_NOT_FOUND = 'PROVIDER_MODEL_NOT_FOUND'
/** The conversation does not fit the model's context window (`prompt is too long`). */
export const PROVIDER_CONTEXT_LENGTH = 'PROVIDER_CONTEXT_LENGTH'
/** The server rejected the request for another reason (another 4xx, `invalid_request_error`). */
export const PROVIDER_BAD_REQUEST = 'PROVIDER_BAD_REQUEST'
/** HTTP 429 on every attempt, or a `retry-after` longer than the provider is willing to wait. */
export const PROVIDER_RATE_LIMITED = 'PROVIDER_RATE_LIMITED'
/** HTTP 529 (overloaded) or another 5xx on every attempt, or the server could not be reached. */
export const PROVIDER_UNAVAILABLE = 'PROVIDER_UNAVAILABLE'
/** The response broke off, or the server sent an `error` event, after the answer had begun. */
export const PROVIDER_STREAM_INTERRUPTED = 'PROVIDER_STREAM_INTERRUPTED'
/** The server answered 2xx with something that is not a Messages API response. */
export const PROVIDER_BAD_RESPONSE = 'PROVIDER_BAD_RESPONSE'
/** The request's signal was aborted. */
export const PROVIDER_ABORTED = 'PROVIDER_ABORTED'

/** Every code this package produces. */
export const ProviderCodes = {
  PROVIDER_CONFIG,
  PROVIDER_AUTH,
  PROVIDER_MODEL_NOT_FOUND,
  PROVIDER_CONTEXT_LENGTH,
  PROVIDER_BAD_REQUEST,
  PROVIDER_RATE_LIMITED,
  PROVIDER_UNAVAILABLE,
  PROVIDER_STREAM_INTERRUPTED,
  PROVIDER_BAD_RESPONSE,
  PROVIDER_ABORTED,
} as const

export type ProviderCode = typeof ProviderCodes[keyof typeof ProviderCodes]
