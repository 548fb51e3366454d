/**
 * Turns a failed HTTP answer (status, headers, body text) or an error object reported inside
 * a stream into the matching `ProviderError`, with a message that names the model and base
 * URL and quotes what the server said (redacted, and cut to a readable length). Pure: no I/O.
 */
import {
  failWith, ProviderAuthError, ProviderBadRequestError, ProviderContextLengthError, type ProviderError,
  type ProviderErrorOptions, ProviderModelNotFoundError, ProviderRateLimitedError, ProviderStreamInterruptedError,
  ProviderUnavailableError, quote, readErrorBody, type ErrorClass, type HttpFailure, type RequestSite, type ServerError,
} from '@rein/provider-kit'
import type { Credentials } from './config.js'

/** A request site of this provider: also what the request proved itself with, for the advice of an authentication error. */
export interface OpenAISite extends RequestSite {
  credentials: Credentials
}

/** What servers say when the prompt does not fit (OpenAI, DeepSeek, vLLM, llama.cpp, Ollama...). */
const CONTEXT_PATTERNS = [
  /context[ _-]?length/i,
  /context window/i,
  /maximum context/i,
  /too many tokens/i,
  /prompt is too long/i,
  /exceeds? the (?:model'?s? )?(?:maximum|max|context)/i,
  /input (?:is )?too long/i,
]

/** Reads the server's own explanation out of an error body, JSON or not. */
export function readServerError(body: string): ServerError {
  return readErrorBody(body, fromErrorValue)
}

/** Reads `{ error: {...} }`, `{ error: 'text' }`, `{ message }` or `{ detail }`; undefined otherwise. */
export function fromErrorValue(value: unknown): ServerError | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const v = value as Record<string, unknown>
  const inner = v.error
  if (typeof inner === 'string') return { message: inner }
  if (typeof inner === 'object' && inner !== null) {
    const e = inner as Record<string, unknown>
    const out: ServerError = { message: typeof e.message === 'string' ? e.message : JSON.stringify(inner) }
    if (typeof e.code === 'string') out.code = e.code
    if (typeof e.type === 'string') out.type = e.type
    return out
  }
  if (typeof v.message === 'string') return { message: v.message }
  if (typeof v.detail === 'string') return { message: v.detail }
  return undefined
}

/** True when a server error says the conversation is longer than the model accepts. */
export function isContextLengthError(err: ServerError): boolean {
  if (err.code === 'context_length_exceeded') return true
  return CONTEXT_PATTERNS.some((re) => re.test(err.message))
}

/** What to check after a 401/403, by what the request proved itself with. */
const AUTH_ADVICE: Record<Credentials, string> = {
  apiKey: 'Check that apiKey is set to a valid key for this server.',
  elsewhere: 'Check the credentials in headers (or in the baseURL query), or set apiKey.',
  none: 'This server wants an API key: set apiKey in the provider config (e.g. apiKey: ${env:OPENAI_API_KEY}).',
}

/** The error for a non-2xx answer. Called once the retries (if the status allows them) are spent. */
export function classifyHttpError(f: HttpFailure, site: OpenAISite): ProviderError {
  const server = readServerError(f.body)
  const said = quote(server.message, site)
  const status = f.status
  const options: ProviderErrorOptions = { status, ...(f.retryAfterMs === undefined ? {} : { retryAfterMs: f.retryAfterMs }) }
  const tries = f.attempts > 1 ? ` after ${f.attempts} attempts` : ''
  const note = f.note === undefined ? '' : ` ${f.note}`
  const make = <E extends ProviderError>(Kind: ErrorClass<E>, message: string) => failWith(site, Kind, message + note, options)
  if (status === 401 || status === 403) {
    return make(ProviderAuthError, `authentication failed at ${site.baseURL} (HTTP ${status}): ${said}. ${AUTH_ADVICE[site.credentials]}`)
  }
  if (status === 404) {
    return make(ProviderModelNotFoundError, `model "${site.model}" was not found at ${site.baseURL} (HTTP 404): ${said}. Check the model name, and that baseURL points at a Chat Completions API (OpenAI needs the /v1 suffix).`)
  }
  if (status === 429) {
    const wait = f.retryAfterMs === undefined ? '' : ` The server asked to wait ${Math.ceil(f.retryAfterMs / 1000)}s.`
    return make(ProviderRateLimitedError, `rate limited by ${site.baseURL} (HTTP 429)${tries}: ${said}.${wait}`)
  }
  if (status >= 500) {
    return make(ProviderUnavailableError, `${site.baseURL} is unavailable (HTTP ${status})${tries}: ${said}.`)
  }
  if (isContextLengthError(server)) {
    return make(ProviderContextLengthError, `the conversation is too long for the context window of model "${site.model}" (HTTP ${status}): ${said}. Shorten the transcript or tool results.`)
  }
  return make(ProviderBadRequestError, `${site.baseURL} rejected the request for model "${site.model}" (HTTP ${status}): ${said}`)
}

/** The error for an `{ error }` object that a server sent inside an otherwise successful stream. */
export function classifyStreamError(err: ServerError, site: RequestSite): ProviderError {
  const said = quote(err.message, site)
  if (isContextLengthError(err)) {
    return failWith(site, ProviderContextLengthError, `the conversation is too long for the context window of model "${site.model}": ${said}. Shorten the transcript or tool results.`)
  }
  return failWith(site, ProviderStreamInterruptedError, `${site.baseURL} reported an error in the middle of the response: ${said}`)
}
