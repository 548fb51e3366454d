/**
 * A failed HTTP answer (status, body, request id) or an `error` event inside a stream -> the
 * matching `ProviderError`, with a message that names the server, the model, the HTTP status
 * and the server's error type, quotes what the server said (redacted, cut to a readable
 * length), says what to check, and ends with the request id when there is one. Pure: no I/O.
 */
import {
  failWith, ProviderAuthError, ProviderBadRequestError, ProviderContextLengthError, type ProviderError,
  type ProviderErrorOptions, ProviderModelNotFoundError, ProviderRateLimitedError, ProviderStreamInterruptedError,
  ProviderUnavailableError, quote, readErrorBody, type ErrorClass, type HttpFailure, type RequestSite, type ServerError,
} from '@rein/provider-kit'

/** A request site of this provider: also where the credential is configured, for the advice of an authentication error. */
export interface AnthropicSite extends RequestSite {
  credentials: 'apiKey' | 'headers'
}

type Obj = Record<string, unknown>
const asObject = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Obj : undefined)

/** Reads the error out of a parsed body or event (`{ type: 'error', error: { type, message }, request_id }`); undefined when it holds none. */
export function fromErrorValue(value: unknown): ServerError | undefined {
  const root = asObject(value)
  if (root === undefined) return undefined
  const requestId = typeof root.request_id === 'string' ? { requestId: root.request_id } : {}
  const inner = root.error
  if (typeof inner === 'string') return { message: inner, ...requestId }
  const e = asObject(inner)
  if (e !== undefined) {
    return {
      message: typeof e.message === 'string' ? e.message : JSON.stringify(e),
      ...(typeof e.type === 'string' ? { type: e.type } : {}),
      ...requestId,
    }
  }
  if (typeof root.message === 'string') return { message: root.message, ...requestId }
  return undefined
}

const CONTEXT_PATTERNS = [/prompt is too long/i, /context (?:window|length)/i, /too many (?:input )?tokens/i, /exceeds? the (?:model'?s? )?(?:maximum|context)/i]

/** True when the server says the conversation is longer than the model accepts. */
export function isContextLength(err: ServerError): boolean {
  return CONTEXT_PATTERNS.some((re) => re.test(err.message))
}

const AUTH_ADVICE = {
  apiKey: 'Check that apiKey holds a valid Anthropic API key (it is sent as x-api-key).',
  headers: 'Check the credential in headers (x-api-key or authorization), or set apiKey.',
} as const

/** The error for a non-2xx answer, once the retries its status allows are spent. */
export function classifyHttpError(f: HttpFailure, site: AnthropicSite): ProviderError {
  const server = readErrorBody(f.body, fromErrorValue)
  const requestId = server.requestId ?? f.requestId
  const options: ProviderErrorOptions = {
    status: f.status,
    ...(f.retryAfterMs === undefined ? {} : { retryAfterMs: f.retryAfterMs }),
    ...(server.type === undefined ? {} : { errorType: server.type }),
    ...(requestId === undefined ? {} : { requestId }),
  }
  const http = `HTTP ${f.status}${server.type === undefined ? '' : ` ${server.type}`}`
  const tries = f.attempts > 1 ? ` after ${f.attempts} attempts` : ''
  const said = quote(server.message, site)
  const tail = `${f.note === undefined ? '' : ` ${f.note}`}${requestId === undefined ? '' : ` (request id ${requestId})`}`
  const make = <E extends ProviderError>(Kind: ErrorClass<E>, message: string) => failWith(site, Kind, message + tail, options)
  const { status } = f
  if (status === 401 || status === 403) {
    return make(ProviderAuthError, `${site.baseURL} refused the credentials (${http}): ${said}. ${status === 403 ? `Check that the key may use model "${site.model}". ` : ''}${AUTH_ADVICE[site.credentials]}`)
  }
  if (status === 404) {
    return make(ProviderModelNotFoundError, `model "${site.model}" was not found at ${site.baseURL} (${http}): ${said}. Check the model name, and that baseURL is the server root (requests go to <baseURL>/v1/messages).`)
  }
  if (status === 429) {
    const wait = f.retryAfterMs === undefined ? '' : ` The server asked to wait ${Math.ceil(f.retryAfterMs / 1000)}s.`
    return make(ProviderRateLimitedError, `rate limited by ${site.baseURL} (${http})${tries}: ${said}.${wait}`)
  }
  if (status === 529 || server.type === 'overloaded_error') {
    return make(ProviderUnavailableError, `${site.baseURL} is overloaded (${http})${tries}: ${said}. Try again later, or raise maxRetries.`)
  }
  if (status >= 500) return make(ProviderUnavailableError, `${site.baseURL} is unavailable (${http})${tries}: ${said}.`)
  if (isContextLength(server)) {
    return make(ProviderContextLengthError, `the conversation is too long for the context window of model "${site.model}" (${http}): ${said}. Shorten the transcript or tool results.`)
  }
  if (status === 413) {
    return make(ProviderBadRequestError, `the request is too large for ${site.baseURL} (${http}): ${said}. Shorten the transcript or tool results (images count too).`)
  }
  return make(ProviderBadRequestError, `${site.baseURL} rejected the request for model "${site.model}" (${http}): ${said}`)
}

/** The error for an `error` event that arrived after the answer had begun. */
export function classifyStreamError(err: ServerError, site: RequestSite): ProviderError {
  const said = quote(err.message, site)
  const kind = err.type === undefined ? '' : ` (${err.type})`
  const tail = err.requestId === undefined ? '' : ` (request id ${err.requestId})`
  const options: ProviderErrorOptions = {
    ...(err.type === undefined ? {} : { errorType: err.type }),
    ...(err.requestId === undefined ? {} : { requestId: err.requestId }),
  }
  if (isContextLength(err)) {
    return failWith(site, ProviderContextLengthError, `the conversation is too long for the context window of model "${site.model}"${kind}: ${said}. Shorten the transcript or tool results.${tail}`, options)
  }
  return failWith(site, ProviderStreamInterruptedError, `${site.baseURL} reported an error in the middle of the answer${kind}: ${said}. It was not retried: part of the answer may already have been shown.${tail}`, options)
}
