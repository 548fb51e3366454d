/**
 * One JSON POST, with retries. A retryable answer (see `retry.ts`) or a connection failure is
 * retried, up to `maxRetries` times, only while no byte of a successful body has been consumed:
 * the first chunk is read here, inside the retry loop, so a connection that dies right after the
 * headers is retried too; after that, a broken body is an interruption, never a retry. The
 * request's signal aborts the fetch, the body and every wait. Messages name the shown URL, never
 * the real one (its query may hold a secret), and every error is built by `failWith`.
 */
import type { ProviderError } from './errors.js'
import { abortedError, ProviderStreamInterruptedError, ProviderUnavailableError } from './errors.js'
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

async function* rest(first: Uint8Array | undefined, reader: ReadableStreamDefaultReader<Uint8Array> | undefined, site: RequestSite, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  let received = first?.byteLength ?? 0
  try {
    if (first === undefined || reader === undefined) return
    yield first
    for (;;) {
      let step: ReadResult
      try { step = await reader.read() } catch (err) {
        if (signal?.aborted) throw abortedError(signal)
        throw failWith(site, ProviderStreamInterruptedError, `the connection to ${site.baseURL} broke off in the middle of the response after ${received} bytes: ${reasonOf(err)}`, { cause: err })
      }
      if (step.done) return
      received += step.value.byteLength
      yield step.value
    }
  } finally {
    // An early exit (a consumer that stops reading, or an error) closes the connection.
    reader?.cancel().catch(() => {})
  }
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
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw abortedError(signal)
    const last = attempt >= attempts
    let response: Response
    try {
      response = await deps.fetch(endpoint.url, { method: 'POST', headers: requestHeaders(endpoint, stream), body: payload, signal })
    } catch (err) {
      if (signal?.aborted) throw abortedError(signal)
      if (!last) { await wait(backoff(attempt)); continue }
      throw failWith(site, ProviderUnavailableError, `could not reach ${endpoint.shownURL} (${tried}): ${reasonOf(err)}`, { cause: err })
    }
    if (response.ok) {
      const reader = response.body?.getReader()
      if (reader === undefined) return { response, chunks: rest(undefined, undefined, site, signal) }
      let first: ReadResult
      try { first = await reader.read() } catch (err) {
        if (signal?.aborted) throw abortedError(signal)
        if (!last) { await wait(backoff(attempt)); continue }
        throw failWith(site, ProviderUnavailableError, `${endpoint.shownURL} closed the connection before sending a body (${tried}): ${reasonOf(err)}`, { cause: err })
      }
      return { response, chunks: rest(first.done ? undefined : first.value, reader, site, signal) }
    }
    let text = ''
    try { text = await response.text() } catch {
      if (signal?.aborted) throw abortedError(signal)
    }
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
