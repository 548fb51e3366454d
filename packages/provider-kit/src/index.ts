/**
 * `@rein/provider-kit`: what every rein HTTP model provider shares, whatever its wire protocol —
 * the error catalogue, redaction of keys and header values (in messages and causes), a JSON POST
 * with retries that end on abort (no redirect followed, an idle timeout, bounded bodies), SSE
 * parsing, `stream`/`generate` over a wire format, and the config checks. A provider adds only
 * its wire format: request building, answer assembly, and its config specifics. Imports only
 * `@rein/kernel`'s types.
 */
export * from './codes.js'
export {
  ProviderError, ProviderConfigError, ProviderAuthError, ProviderModelNotFoundError,
  ProviderContextLengthError, ProviderBadRequestError, ProviderRateLimitedError,
  ProviderUnavailableError, ProviderStreamInterruptedError, ProviderBadResponseError,
  ProviderAbortedError, abortedError, type ProviderErrorOptions,
} from './errors.js'
export { failWith, type RequestSite, type ErrorClass } from './site.js'
export { createRedactor, secretHeaderValues, REDACTED, MIN_ANYWHERE_LENGTH, type Redactor } from './secrets.js'
export { redactedCopy, NETWORK_FACTS } from './safe-cause.js'
export { readErrorBody, quote, MAX_QUOTE, type ServerError } from './server-error.js'
export { transientStatus, isRetryable, parseRetryAfter, backoffDelay, sleep, type RetryPolicy } from './retry.js'
export { postWithRetries, requestHeaders, defaultDeps, type Endpoint, type HttpDeps, type HttpFailure, type OpenBody } from './http.js'
export { parseSSE, SSEParser, type SSEEvent, type SSELimits } from './sse.js'
export { MAX_BODY_BYTES, MAX_SSE_EVENT_SIZE, MAX_ERROR_BODY_BYTES, MAX_ANSWER_PARTS, DEFAULT_IDLE_TIMEOUT_MS } from './limits.js'
export { AnswerBudget, type AnswerLimits } from './answer-budget.js'
export { answers, type Answers, type AnswerEvent, type Assembler, type Wire } from './answers.js'
export { wireProvider, wireEndpoint, type WireProvider, type WireConfig, type WireFormat, type WireTarget } from './provider.js'
export { readHttpURL, quotableURL, type HttpURLReading, type HttpURLProblem } from './http-url.js'
export { ConfigCheck, type TransportConfig, type Transport, type SecretAdvice } from './config-checks.js'
