/**
 * One POST to `<baseURL>/v1/messages`, with retries. A retryable answer (see `retry.ts`) or a
 * connection failure is retried, up to `maxRetries` times, only while no byte of a successful
 * body has been consumed: the first chunk is read here, inside the retry loop, so a connection
 * that dies right after the headers is retried too; after that, a broken body is an
 * interruption, never a retry. The request's signal aborts the fetch, the body and every wait.
 */
import { classifyHttpError } from './classify.js'
import type { ResolvedConfig } from './config.js'
import {
  abortedError, failWith, ProviderStreamInterruptedError, ProviderUnavailableError, type RequestSite,
} from './errors.js'
import { backoffDelay, isRetryable, parseRetryAfter, sleep } from './retry.js'

/** What the HTTP layer needs from the world; tests replace the clock, the dice and the sleep. */
export interface HttpDeps {
  fetch: typeof fetch
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>
  now: () => number
  random: () => number
}

/** The real world: Node's global fetch, timers, clock and `Math.random`. */
export const defaultDeps: HttpDeps = { fetch: (...a) => fetch(...a), sleep, now: () => Date.now(), random: Math.random }

/** A 2xx answer whose body has begun: its headers and its bytes (the first chunk already read). */
export interface OpenBody {
  response: Response
  chunks: AsyncIterable<Uint8Array>
}

type ReadResult = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>

/** The request site of a config, for error messages. */
export function siteOf(config: ResolvedConfig): RequestSite {
  return { baseURL: config.baseURL, model: config.model, redact: config.redact, credentials: config.apiKey === undefined ? 'headers' : 'apiKey' }
}

/** The defaults, then the configured headers over them. */
function requestHeaders(config: ResolvedConfig, stream: boolean): Headers {
  const headers = new Headers({
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
    'anthropic-version': config.anthropicVersion,
  })
  if (config.apiKey !== undefined) headers.set('x-api-key', config.apiKey)
  for (const [name, value] of Object.entries(config.headers)) headers.set(name, value)
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
        throw failWith(site, ProviderStreamInterruptedError, `the connection to ${site.baseURL} broke off in the middle of the answer after ${received} bytes: ${reasonOf(err)}`, { cause: err })
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

/** POSTs `body`; returns the open 2xx body, or throws the `ProviderError` that says why not. */
export async function postWithRetries(config: ResolvedConfig, body: unknown, stream: boolean, signal: AbortSignal | undefined, deps: HttpDeps): Promise<OpenBody> {
  const site = siteOf(config)
  const payload = JSON.stringify(body)
  const attempts = config.maxRetries + 1
  const tried = `${attempts} attempt${attempts > 1 ? 's' : ''}`
  const backoff = (attempt: number) => backoffDelay(attempt - 1, config.retryBaseDelayMs, config.maxRetryDelayMs, deps.random)
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
      response = await deps.fetch(config.endpoint, { method: 'POST', headers: requestHeaders(config, stream), body: payload, signal })
    } catch (err) {
      if (signal?.aborted) throw abortedError(signal)
      if (!last) { await wait(backoff(attempt)); continue }
      throw failWith(site, ProviderUnavailableError, `could not reach ${config.endpoint} (${tried}): ${reasonOf(err)}`, { cause: err })
    }
    if (response.ok) {
      const reader = response.body?.getReader()
      if (reader === undefined) return { response, chunks: rest(undefined, undefined, site, signal) }
      let first: ReadResult
      try { first = await reader.read() } catch (err) {
        if (signal?.aborted) throw abortedError(signal)
        if (!last) { await wait(backoff(attempt)); continue }
        throw failWith(site, ProviderUnavailableError, `${config.endpoint} closed the connection before sending a body (${tried}): ${reasonOf(err)}`, { cause: err })
      }
      return { response, chunks: rest(first.done ? undefined : first.value, reader, site, signal) }
    }
    let text = ''
    try { text = await response.text() } catch {
      if (signal?.aborted) throw abortedError(signal)
    }
    const retryAfterMs = parseRetryAfter(response.headers, deps.now())
    const requestId = response.headers.get('request-id') ?? undefined
    const failure = {
      status: response.status, body: text, attempts: attempt,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }), ...(requestId === undefined ? {} : { requestId }),
    }
    if (!isRetryable(response.status, response.headers) || last) throw classifyHttpError(failure, site)
    if (retryAfterMs !== undefined && retryAfterMs > config.maxRetryDelayMs) {
      throw classifyHttpError({ ...failure, note: `That is longer than maxRetryDelayMs (${config.maxRetryDelayMs}ms), so it was not retried.` }, site)
    }
    await wait(retryAfterMs ?? backoff(attempt))
  }
}
