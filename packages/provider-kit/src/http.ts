/**
 * One JSON POST, with retries. A retryable answer (see `retry.ts`) or a connection failure is
 * retried, up to `maxRetries` times, only while no byte of a successful body has been consumed:
 * the first chunk is read here, inside the retry loop, so a connection that dies right after the
 * headers is retried too; after that, a broken body is an interruption, never a retry. The
 * request's signal aborts the fetch, the body and every wait. A redirect is never followed (it
 * would carry the key and the conversation to another address): it fails at once. A server that
 * stays silent for `idleTimeoutMs` — before its headers, or between two chunks of a body — fails
 * the attempt. Of an error answer, at most `MAX_ERROR_BODY_BYTES` are read. Messages name the
 * shown URL, never the real one (its query may hold a secret), and every error is built by `failWith`.
 */
import type { ProviderError } from './errors.js'
import { abortedError, ProviderBadResponseError, ProviderStreamInterruptedError, ProviderUnavailableError } from './errors.js'
import { IdleWatch } from './idle.js'
import { DEFAULT_IDLE_TIMEOUT_MS, MAX_ERROR_BODY_BYTES } from './limits.js'
import { backoffDelay, isRetryable, parseRetryAfter, sleep, type RetryPolicy } from './retry.js'
import { failWith, type RequestSite } from './site.js'

/** What the HTTP layer needs from the world; tests replace the clock, the dice and the sleep. */
export interface HttpDeps {
  fetch: typeof fetch
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>
  now: () => number
  random: () => number
}

/** The real world: Node's global fetch, timers, clock and `Math.random`. */
export const defaultDeps: HttpDeps = { fetch: (...a) => fetch(...a), sleep, now: () => Date.now(), random: Math.random }

/** Facts about a failed answer, for the provider's `classify`. */
export interface HttpFailure {
  status: number
  body: string
  /** How many requests were made in total. */
  attempts: number
  retryAfterMs?: number
  /** The server's request id, from the header the endpoint names. */
  requestId?: string
  /** A sentence to add to the message (why no retry was made, for instance). */
  note?: string
}

/** Where and how a provider posts: fixed when the provider is created. */
export interface Endpoint {
  /** Where requests go; may hold secrets (a query), so it never appears in a message. */
  url: string
  /** `url` as messages show it. */
  shownURL: string
  /** The wire's own headers (its credential, its version), after `content-type` and `accept`. */
  headers: Readonly<Record<string, string>>
  /** The user's headers, set last: they may replace any default. */
  configuredHeaders: Readonly<Record<string, string>>
  site: RequestSite
  retry: RetryPolicy
  /** The response header that carries the server's request id, when the wire has one. */
  requestIdHeader?: string
  /** The error for a non-2xx answer, once the retries its status allows are spent. */
  classify: (failure: HttpFailure) => ProviderError
  /** The longest silence of the server (before its headers, between chunks) before an attempt fails. Default `DEFAULT_IDLE_TIMEOUT_MS`. */
  idleTimeoutMs?: number
}

/** A 2xx answer whose body has begun: its headers and its bytes (the first chunk already read). */
export interface OpenBody {
  response: Response
  chunks: AsyncIterable<Uint8Array>
}

type ReadResult = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>

/** The request headers: JSON out, SSE or JSON back, then the wire's headers, then the user's over them. */
export function requestHeaders(endpoint: Endpoint, stream: boolean): Headers {
  const headers = new Headers({ 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json' })
  for (const layer of [endpoint.headers, endpoint.configuredHeaders]) {
    for (const [name, value] of Object.entries(layer)) headers.set(name, value)
  }
  return headers
}

/** The network-level reason of a failed fetch or read (`ECONNREFUSED`, `other side closed`...). */
function reasonOf(err: unknown): string {
  const e = err as { message?: unknown, cause?: { code?: unknown, message?: unknown } } | undefined
  const cause = e?.cause
  if (cause && typeof cause.code === 'string') return `${cause.code}${typeof cause.message === 'string' ? ` (${cause.message})` : ''}`
  if (cause && typeof cause.message === 'string') return cause.message
  return typeof e?.message === 'string' ? e.message : String(err)
}

/** Where a request went, for the errors of its body. */
interface BodySite {
  site: RequestSite
  watch: IdleWatch
  signal: AbortSignal | undefined
}

async function* rest(first: Uint8Array | undefined, reader: ReadableStreamDefaultReader<Uint8Array> | undefined, at: BodySite): AsyncGenerator<Uint8Array> {
  const { site, watch, signal } = at
  let received = first?.byteLength ?? 0
  try {
    if (first === undefined || reader === undefined) return
    yield first
    for (;;) {
      let step: ReadResult
      try { step = await watch.wait(() => reader.read()) } catch (err) {
        if (signal?.aborted) throw abortedError(signal)
        if (watch.timedOut) {
          throw failWith(site, ProviderStreamInterruptedError, `${site.baseURL} sent nothing for ${watch.ms} ms (idleTimeoutMs) in the middle of the response, after ${received} bytes; the request was given up`)
        }
        throw failWith(site, ProviderStreamInterruptedError, `the connection to ${site.baseURL} broke off in the middle of the response after ${received} bytes: ${reasonOf(err)}`, { cause: err })
      }
      if (step.done) return
      received += step.value.byteLength
      yield step.value
    }
  } finally {
    // An early exit (a consumer that stops reading, or an error) closes the connection.
    watch.dispose()
    reader?.cancel().catch(() => {})
  }
}

/**
 * The start of an error answer's body, as text: at most `MAX_ERROR_BODY_BYTES`, then the body
 * is cancelled. What could not be read (a broken or silent connection) is left out.
 */
async function errorText(response: Response, watch: IdleWatch): Promise<string> {
  const reader = response.body?.getReader()
  if (reader === undefined) return ''
  const decoder = new TextDecoder('utf-8')
  let text = ''
  let size = 0
  try {
    while (size < MAX_ERROR_BODY_BYTES) {
      const step = await watch.wait(() => reader.read())
      if (step.done) break
      const piece = step.value.subarray(0, MAX_ERROR_BODY_BYTES - size)
      size += piece.byteLength
      text += decoder.decode(piece, { stream: true })
    }
    return text + decoder.decode()
  } catch {
    return text
  } finally {
    reader.cancel().catch(() => {})
  }
}

/** The error for a 3xx answer: redirects are not followed, so it names where it pointed (without a query). */
function redirected(endpoint: Endpoint, response: Response): ProviderError {
  const location = response.headers.get('location')
  let target = ''
  try {
    if (location !== null) { const url = new URL(location, endpoint.url); target = ` to ${url.origin}${url.pathname}`.slice(0, 300) }
  } catch { /* an unreadable location is not shown */ }
  return failWith(endpoint.site, ProviderBadResponseError,
    `${endpoint.shownURL} answered HTTP ${response.status}, a redirect${target}. Redirects are not followed, so that the credentials and the conversation go only to the configured server; if you trust that address, set baseURL to it`,
    { status: response.status })
}

/** POSTs `body` as JSON; returns the open 2xx body, or throws the `ProviderError` that says why not. */
export async function postWithRetries(endpoint: Endpoint, body: unknown, stream: boolean, signal: AbortSignal | undefined, deps: HttpDeps): Promise<OpenBody> {
  const { site, retry } = endpoint
  const payload = JSON.stringify(body)
  const attempts = retry.maxRetries + 1
  const tried = `${attempts} attempt${attempts > 1 ? 's' : ''}`
  const backoff = (attempt: number) => backoffDelay(attempt - 1, retry.retryBaseDelayMs, retry.maxRetryDelayMs, deps.random)
  const wait = async (ms: number) => {
    try { await deps.sleep(ms, signal) } catch (err) {
      if (signal?.aborted) throw abortedError(signal)
      throw err
    }
  }
  const idleMs = endpoint.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS
  const silent = (what: string) => `${endpoint.shownURL} sent ${what} within ${idleMs} ms (idleTimeoutMs) (${tried})`
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw abortedError(signal)
    const last = attempt >= attempts
    const watch = new IdleWatch(idleMs, signal)
    let response: Response
    try {
      const init: RequestInit = { method: 'POST', headers: requestHeaders(endpoint, stream), body: payload, signal: watch.signal, redirect: 'manual' }
      response = await watch.wait(() => deps.fetch(endpoint.url, init))
    } catch (err) {
      watch.dispose()
      if (signal?.aborted) throw abortedError(signal)
      if (!last) { await wait(backoff(attempt)); continue }
      if (watch.timedOut) throw failWith(site, ProviderUnavailableError, silent('no answer'))
      throw failWith(site, ProviderUnavailableError, `could not reach ${endpoint.shownURL} (${tried}): ${reasonOf(err)}`, { cause: err })
    }
    if (response.status >= 300 && response.status < 400) {
      watch.dispose()
      response.body?.cancel().catch(() => {})
      throw redirected(endpoint, response)
    }
    if (response.ok) {
      const reader = response.body?.getReader()
      if (reader === undefined) { watch.dispose(); return { response, chunks: rest(undefined, undefined, { site, watch, signal }) } }
      let first: ReadResult
      try { first = await watch.wait(() => reader.read()) } catch (err) {
        watch.dispose()
        reader.cancel().catch(() => {})
        if (signal?.aborted) throw abortedError(signal)
        if (!last) { await wait(backoff(attempt)); continue }
        if (watch.timedOut) throw failWith(site, ProviderUnavailableError, silent('its headers but no body'))
        throw failWith(site, ProviderUnavailableError, `${endpoint.shownURL} closed the connection before sending a body (${tried}): ${reasonOf(err)}`, { cause: err })
      }
      if (first.done) watch.dispose()
      return { response, chunks: rest(first.done ? undefined : first.value, reader, { site, watch, signal }) }
    }
    const text = await errorText(response, watch)
    watch.dispose()
    if (signal?.aborted) throw abortedError(signal)
    const retryAfterMs = parseRetryAfter(response.headers, deps.now())
    const requestId = endpoint.requestIdHeader === undefined ? undefined : response.headers.get(endpoint.requestIdHeader) ?? undefined
    const failure: HttpFailure = {
      status: response.status, body: text, attempts: attempt,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }), ...(requestId === undefined ? {} : { requestId }),
    }
    if (!isRetryable(response.status, response.headers, retry) || last) throw endpoint.classify(failure)
    if (retryAfterMs !== undefined && retryAfterMs > retry.maxRetryDelayMs) {
      throw endpoint.classify({ ...failure, note: `That is longer than maxRetryDelayMs (${retry.maxRetryDelayMs}ms), so it was not retried.` })
    }
    await wait(retryAfterMs ?? backoff(attempt))
  }
}
