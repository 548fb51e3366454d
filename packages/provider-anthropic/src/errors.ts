/**
 * The errors this provider throws: one `ProviderError` subclass per code, each with the stable
 * `code`, the HTTP `status` when there was one, the server's error `type` and request id when
 * it sent them, and a message that says what went wrong and what to check. Every error except
 * an abort is made by `failWith`, which passes the message, every string property and the
 * `cause` through the redactor, so no configured secret reaches a message, property or cause.
 */
import * as codes from './codes.js'
import type { ProviderCode } from './codes.js'
import { safeCause } from './safe-cause.js'
import type { Redactor } from './secrets.js'

/** Extra facts an error may carry. */
export interface ProviderErrorOptions {
  status?: number
  /** How long the server asked to wait (from `retry-after`), in milliseconds. */
  retryAfterMs?: number
  /** The server's `error.type`: `overloaded_error`, `rate_limit_error`, `invalid_request_error`... */
  errorType?: string
  /** The server's request id (`request-id` header or `request_id` in the body), for support. */
  requestId?: string
  cause?: unknown
}

/** The base class: every error of this package. Match on `code`, not on the class or message. */
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
/** HTTP 404: unknown model, or a base URL that is not a Messages API server. */
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
/** HTTP 529/5xx or a network failure after the last retry. */
export class ProviderUnavailableError extends ProviderError {
  constructor(message: string, o?: ProviderErrorOptions) { super(codes.PROVIDER_UNAVAILABLE, message, o); this.name = 'ProviderUnavailableError' }
}
/** The body broke off, or the server sent an `error` event, after the answer had begun. */
export class ProviderStreamInterruptedError extends ProviderError {
  constructor(message: string, o?: ProviderErrorOptions) { super(codes.PROVIDER_STREAM_INTERRUPTED, message, o); this.name = 'ProviderStreamInterruptedError' }
}
/** A 2xx answer that is not a Messages API response (not JSON, not SSE events it can read). */
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

/** Where a request went: what every error message names, and how to keep secrets out of it. */
export interface RequestSite {
  /** The base URL as configured, without a trailing slash. */
  baseURL: string
  model: string
  /** Takes every configured secret out of a text. */
  redact: Redactor
  /** Where the credential is configured, for the advice an authentication error gives. */
  credentials: 'apiKey' | 'headers'
}

type ErrorClass<E extends ProviderError> = new (message: string, o?: ProviderErrorOptions) => E

/** Builds an error with its message, string properties and cause redacted. */
export function failWith<E extends ProviderError>(site: RequestSite, Kind: ErrorClass<E>, message: string, options: ProviderErrorOptions = {}): E {
  const safe: ProviderErrorOptions = { ...options }
  if (safe.errorType !== undefined) safe.errorType = site.redact(safe.errorType)
  if (safe.requestId !== undefined) safe.requestId = site.redact(safe.requestId)
  if (safe.cause !== undefined) safe.cause = safeCause(safe.cause, site.redact)
  return new Kind(site.redact(message), safe)
}

/** The abort error for a request whose signal fired. */
export function abortedError(signal: AbortSignal): ProviderAbortedError {
  return new ProviderAbortedError('the model request was aborted', { cause: signal.reason })
}
