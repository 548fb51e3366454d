/**
 * The errors a provider throws: one `ProviderError` subclass per code, each carrying the stable
 * `code`, the HTTP `status` when there was one, the wait the server asked for, and the server's
 * own error type and request id when it sent them. These classes do not redact: build every error
 * that may quote a server or a network error with `failWith` (`site.ts`), which does.
 */
import * as codes from './codes.js'
import type { ProviderCode } from './codes.js'

/** Extra facts an error may carry. */
export interface ProviderErrorOptions {
  status?: number
  /** How long the server asked to wait (from `retry-after`), in milliseconds. */
  retryAfterMs?: number
  /** The server's own error type (`overloaded_error`, `rate_limit_error`, ...), when its wire has one. */
  errorType?: string
  /** The server's request id (a header or a body field), for support. */
  requestId?: string
  cause?: unknown
}

/** The base class: every error of a provider. Match on `code`, not on the class or message. */
export class ProviderError extends Error {
  readonly code: ProviderCode
  readonly status?: number
  readonly retryAfterMs?: number
  readonly errorType?: string
  readonly requestId?: string

  constructor(code: ProviderCode, message: string, options: ProviderErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ProviderError'
    this.code = code
    if (options.status !== undefined) this.status = options.status
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs
    if (options.errorType !== undefined) this.errorType = options.errorType
    if (options.requestId !== undefined) this.requestId = options.requestId
  }
}

/** Thrown by `createProvider` for a config that cannot work. */
export class ProviderConfigError extends ProviderError {
  constructor(message: string) { super(codes.PROVIDER_CONFIG, message); this.name = 'ProviderConfigError' }
}
/** HTTP 401/403: the credentials were refused. */
export class ProviderAuthError extends ProviderError {
  constructor(message: string, o?: ProviderErrorOptions) { super(codes.PROVIDER_AUTH, message, o); this.name = 'ProviderAuthError' }
}
/** HTTP 404: unknown model, or a base URL that does not lead to the provider's API. */
export class ProviderModelNotFoundError extends ProviderError {
  constructor(message: string, o?: ProviderErrorOptions) { super(codes.PROVIDER_MODEL_NOT_FOUND, message, o); this.name = 'ProviderModelNotFoundError' }
}
/** The conversation is longer than the model's context window. */
export class ProviderContextLengthError extends ProviderError {
  constructor(message: string, o?: ProviderErrorOptions) { super(codes.PROVIDER_CONTEXT_LENGTH, message, o); this.name = 'ProviderContextLengthError' }
}
/** Any other 4xx: the server rejected the request as sent. */
export class ProviderBadRequestError extends ProviderError {
  constructor(message: string, o?: ProviderErrorOptions) { super(codes.PROVIDER_BAD_REQUEST, message, o); this.name = 'ProviderBadRequestError' }
}
/** HTTP 429 after the last retry. */
export class ProviderRateLimitedError extends ProviderError {
  constructor(message: string, o?: ProviderErrorOptions) { super(codes.PROVIDER_RATE_LIMITED, message, o); this.name = 'ProviderRateLimitedError' }
}
/** HTTP 5xx (or overloaded) or a network failure after the last retry. */
export class ProviderUnavailableError extends ProviderError {
  constructor(message: string, o?: ProviderErrorOptions) { super(codes.PROVIDER_UNAVAILABLE, message, o); this.name = 'ProviderUnavailableError' }
}
/** The body broke off, or the server reported an error inside it, after it had begun. */
export class ProviderStreamInterruptedError extends ProviderError {
  constructor(message: string, o?: ProviderErrorOptions) { super(codes.PROVIDER_STREAM_INTERRUPTED, message, o); this.name = 'ProviderStreamInterruptedError' }
}
/** A 2xx answer that is not a response of the provider's API (or is too large to be one), or a redirect, which is never followed. */
export class ProviderBadResponseError extends ProviderError {
  constructor(message: string, o?: ProviderErrorOptions) { super(codes.PROVIDER_BAD_RESPONSE, message, o); this.name = 'ProviderBadResponseError' }
}
/**
 * The request's signal was aborted. Named `AbortError` like the platform's own abort errors,
 * so code that checks `error.name === 'AbortError'` keeps working; `cause` is the signal's reason.
 */
export class ProviderAbortedError extends ProviderError {
  constructor(message: string, o?: ProviderErrorOptions) { super(codes.PROVIDER_ABORTED, message, o); this.name = 'AbortError' }
}

/** The abort error for a request whose signal fired. Its `cause` is the caller's own reason, as given. */
export function abortedError(signal: AbortSignal): ProviderAbortedError {
  return new ProviderAbortedError('the model request was aborted', { cause: signal.reason })
}
