/**
 * A failed HTTP answer (status, body, request id) or an `error` event inside a stream -> the
 * matching `ProviderError`, with a message that names the server, the model, the HTTP status
 * and the server's error type, quotes what the server said (redacted, cut to a readable
 * length), says what to check, and ends with the request id when there is one. Pure: no I/O.
 */
import {
  failWith, ProviderAuthError, ProviderBadRequestError, ProviderContextLengthError, type ProviderError,
  type ProviderErrorOptions, ProviderModelNotFoundError, ProviderRateLimitedError,
  ProviderStreamInterruptedError, ProviderUnavailableError, type RequestSite,
} from './errors.js'

/** The longest server text quoted in a message. */
const MAX_QUOTE = 500

/** What the server said: the Messages API sends `{ type: 'error', error: { type, message }, request_id }`. */
export interface ServerError {
  message: string
  type?: string
  requestId?: string
}

type Obj = Record<string, unknown>
const asObject = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Obj : undefined)

/** Reads the error out of a parsed body or event; undefined when it holds none. */
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

/** Reads a body's text, JSON or not, into what the server said. */
export function readServerError(body: string): ServerError {
  let parsed: unknown
  try { parsed = JSON.parse(body) } catch { return { message: body.trim() } }
  return fromErrorValue(parsed) ?? { message: body.trim() }
}

const CONTEXT_PATTERNS = [/prompt is too long/i, /context (?:window|length)/i, /too many (?:input )?tokens/i, /exceeds? the (?:model'?s? )?(?:maximum|context)/i]

/** True when the server says the conversation is longer than the model accepts. */
export function isContextLength(err: ServerError): boolean {
  return CONTEXT_PATTERNS.some((re) => re.test(err.message))
}

/** The server's text, redacted and shortened, ready to quote. */
export function quote(text: string, site: RequestSite): string {
  const clean = site.redact(site.redact(text).replace(/\s+/g, ' ').trim())
  if (clean === '') return '(empty body)'
  return clean.length > MAX_QUOTE ? `${clean.slice(0, MAX_QUOTE)}… (${clean.length - MAX_QUOTE} more characters)` : clean
}

/** Facts about a failed attempt. */
export interface HttpFailure {
  status: number
  body: string
  /** The `request-id` header, when the server sent one. */
  requestId?: string
  retryAfterMs?: number
  /** How many requests were made in total. */
  attempts: number
  /** A sentence added to the message (why no retry was made, for instance). */
  note?: string
}

const AUTH_ADVICE = {
  apiKey: 'Check that apiKey holds a valid Anthropic API key (it is sent as x-api-key).',
  headers: 'Check the credential in headers (x-api-key or authorization), or set apiKey.',
} as const

/** The error for a non-2xx answer, once the retries its status allows are spent. */
export function classifyHttpError(f: HttpFailure, site: RequestSite): ProviderError {
  const server = readServerError(f.body)
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
  const make = <E extends ProviderError>(Kind: new (m: string, o?: ProviderErrorOptions) => E, message: string) => failWith(site, Kind, message + tail, options)
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
