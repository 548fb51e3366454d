/**
 * The catalogue of provider error codes. Every error a provider built on this kit throws is a
 * `ProviderError` whose `code` is one of these strings, whatever the wire protocol, so that a
 * caller (the agent loop, a CLI, a retry policy) matches one set of stable values, never
 * message text, and code written against one provider works with the next.
 */

/** The config passed to `createProvider` is invalid; thrown at creation, never per request. */
export const PROVIDER_CONFIG = 'PROVIDER_CONFIG'
/** The server refused the credentials (HTTP 401/403). */
export const PROVIDER_AUTH = 'PROVIDER_AUTH'
/** The server does not know the model, or `baseURL` does not lead to the provider's API (HTTP 404). */
export const PROVIDER_MODEL_NOT_FOUND = 'PROVIDER_MODEL_NOT_FOUND'
/** The conversation does not fit the model's context window. */
export const PROVIDER_CONTEXT_LENGTH = 'PROVIDER_CONTEXT_LENGTH'
/** The server rejected the request for another reason (another 4xx). */
export const PROVIDER_BAD_REQUEST = 'PROVIDER_BAD_REQUEST'
/** HTTP 429 on every attempt, or a `retry-after` longer than the provider is willing to wait. */
export const PROVIDER_RATE_LIMITED = 'PROVIDER_RATE_LIMITED'
/** HTTP 5xx (or an "overloaded" answer) on every attempt, or the server could not be reached or stayed silent (`idleTimeoutMs`). */
export const PROVIDER_UNAVAILABLE = 'PROVIDER_UNAVAILABLE'
/** The response broke off or went silent (`idleTimeoutMs`), or the server reported an error inside it, after it had begun. */
export const PROVIDER_STREAM_INTERRUPTED = 'PROVIDER_STREAM_INTERRUPTED'
/** The server answered 2xx with something that is not a response of the provider's API (or too large to be one), or redirected. */
export const PROVIDER_BAD_RESPONSE = 'PROVIDER_BAD_RESPONSE'
/** The request's signal was aborted. */
export const PROVIDER_ABORTED = 'PROVIDER_ABORTED'

/** Every code a provider produces. */
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
