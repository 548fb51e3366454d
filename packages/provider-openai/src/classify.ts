/**
 * Turns a failed HTTP answer (status, headers, body text) or an error object reported inside
 * a stream into the matching `ProviderError`, with a message that names the model and base
 * URL and quotes what the server said (redacted, and cut to a readable length). Pure: no I/O.
 */
import type { Credentials } from './config.js'
import {
  ProviderAuthError, ProviderBadRequestError, ProviderContextLengthError, ProviderError,
  ProviderModelNotFoundError, ProviderRateLimitedError, ProviderStreamInterruptedError,
  ProviderUnavailableError, type RequestSite,
} from './errors.js'

/** The longest server text quoted in a message. */
const MAX_QUOTE = 500

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

/** The error fields servers put in a body: `{ error: { message, code, type } }` or looser shapes. */
export interface ServerError {
  message: string
  code?: string
  type?: string
}

/** Reads the server's own explanation out of an error body, JSON or not. */
export function readServerError(body: string): ServerError {
  let parsed: unknown
  try { parsed = JSON.parse(body) } catch { return { message: body.trim() } }
  return fromErrorValue(parsed) ?? { message: body.trim() }
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

/** The server's text, redacted and shortened, ready to quote. */
export function quote(text: string, site: RequestSite): string {
  const clean = site.redact(text).replace(/\s+/g, ' ').trim()
  if (clean.length === 0) return '(empty body)'
  return clean.length > MAX_QUOTE ? `${clean.slice(0, MAX_QUOTE)}… (${clean.length - MAX_QUOTE} more characters)` : clean
}

/** What to check after a 401/403, by what the request proved itself with. */
const AUTH_ADVICE: Record<Credentials, string> = {
  apiKey: 'Check that apiKey is set to a valid key for this server.',
  elsewhere: 'Check the credentials in headers (or in the baseURL query), or set apiKey.',
  none: 'This server wants an API key: set apiKey in the provider config (e.g. apiKey: ${env:OPENAI_API_KEY}).',
}

/** Facts about a failed attempt that shape the message. */
export interface HttpFailure {
  status: number
  body: string
  retryAfterMs?: number
  /** How many requests were made in total, when retries were spent. */
  attempts: number
  /** A sentence appended to the message (why no retry was made, for instance). */
  note?: string
}

/** The error for a non-2xx answer. Called once the retries (if the status allows them) are spent. */
export function classifyHttpError(f: HttpFailure, site: RequestSite): ProviderError {
  const server = readServerError(f.body)
  const said = quote(server.message, site)
  const status = f.status
  const options = { status, ...(f.retryAfterMs === undefined ? {} : { retryAfterMs: f.retryAfterMs }) }
  const tries = f.attempts > 1 ? ` after ${f.attempts} attempts` : ''
  const note = f.note === undefined ? '' : ` ${f.note}`
  const text = (message: string) => site.redact(message + note)
  if (status === 401 || status === 403) {
    return new ProviderAuthError(text(`authentication failed at ${site.baseURL} (HTTP ${status}): ${said}. ${AUTH_ADVICE[site.credentials]}`), options)
  }
  if (status === 404) {
    return new ProviderModelNotFoundError(text(`model "${site.model}" was not found at ${site.baseURL} (HTTP 404): ${said}. Check the model name, and that baseURL points at a Chat Completions API (OpenAI needs the /v1 suffix).`), options)
  }
  if (status === 429) {
    const wait = f.retryAfterMs === undefined ? '' : ` The server asked to wait ${Math.ceil(f.retryAfterMs / 1000)}s.`
    return new ProviderRateLimitedError(text(`rate limited by ${site.baseURL} (HTTP 429)${tries}: ${said}.${wait}`), options)
  }
  if (status >= 500) {
    return new ProviderUnavailableError(text(`${site.baseURL} is unavailable (HTTP ${status})${tries}: ${said}.`), options)
  }
  if (isContextLengthError(server)) {
    return new ProviderContextLengthError(text(`the conversation is too long for the context window of model "${site.model}" (HTTP ${status}): ${said}. Shorten the transcript or tool results.`), options)
  }
  return new ProviderBadRequestError(text(`${site.baseURL} rejected the request for model "${site.model}" (HTTP ${status}): ${said}`), options)
}

/** The error for an `{ error }` object that a server sent inside an otherwise successful stream. */
export function classifyStreamError(err: ServerError, site: RequestSite): ProviderError {
  const said = quote(err.message, site)
  if (isContextLengthError(err)) {
    return new ProviderContextLengthError(site.redact(`the conversation is too long for the context window of model "${site.model}": ${said}. Shorten the transcript or tool results.`))
  }
  return new ProviderStreamInterruptedError(site.redact(`${site.baseURL} reported an error in the middle of the response: ${said}`))
}
