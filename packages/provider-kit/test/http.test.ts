/**
 * The POST with retries, against a real 127.0.0.1 server: which answers are retried and how long
 * it waits, what the provider's `classify` is told, that a body which began is never retried,
 * that messages show the shown URL and never a secret, and that an abort ends a wait at once.
 * A redirect is never followed (the second server sees nothing); a server that goes silent fails
 * after the idle window, but a consumer that is slow to read does not; an error body is read only
 * up to its cap.
 */
import { startHttpFixture, type FixtureReply, type HttpFixture } from '@rein/testing'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PROVIDER_ABORTED, PROVIDER_BAD_RESPONSE, PROVIDER_STREAM_INTERRUPTED, PROVIDER_UNAVAILABLE } from '../src/codes.js'
import { ProviderBadRequestError, type ProviderError } from '../src/errors.js'
import { postWithRetries, type Endpoint, type HttpDeps, type HttpFailure } from '../src/http.js'
import { MAX_ERROR_BODY_BYTES } from '../src/limits.js'
import { transientStatus } from '../src/retry.js'
import { createRedactor } from '../src/secrets.js'
import { failWith } from '../src/site.js'

const SECRET = 'q-secret-0a1b2c3d'
/**
 * The idle window of tests that wait it out. The fixture server shares this process's event
 * loop, and after a stall of the loop its timers run before it reads the bytes already waiting:
 * the window must be longer than a loaded machine stalls, not just longer than the network.
 */
const IDLE_MS = 1_000

let server: HttpFixture | undefined
let other: HttpFixture | undefined
afterEach(async () => {
  await server?.close(); server = undefined
  await other?.close(); other = undefined
})

async function serve(...replies: FixtureReply[]): Promise<HttpFixture> {
  server = await startHttpFixture((_, index) => replies[index] ?? { status: 599, body: 'no scripted reply left' })
  return server
}

/** An endpoint at `url` whose query holds a secret; `classify` records what it is told. */
function endpointAt(url: string, overrides: Partial<Endpoint> = {}) {
  const failures: HttpFailure[] = []
  const site = { baseURL: url, model: 'm', redact: createRedactor([SECRET]) }
  const endpoint: Endpoint = {
    url: `${url}/v1/chat?key=${SECRET}`,
    shownURL: `${url}/v1/chat?key=[REDACTED]`,
    headers: { authorization: 'Bearer wire', 'x-version': '1' },
    configuredHeaders: { 'X-Version': '2', accept: 'application/x-ndjson' },
    site,
    retry: { maxRetries: 2, retryBaseDelayMs: 100, maxRetryDelayMs: 5000, retryableStatus: transientStatus },
    requestIdHeader: 'request-id',
    classify: (failure): ProviderError => {
      failures.push(failure)
      return failWith(site, ProviderBadRequestError, `HTTP ${failure.status}: ${failure.body}${failure.note ? ` ${failure.note}` : ''}`, { status: failure.status })
    },
    ...overrides,
  }
  return { endpoint, failures }
}

/** Sleeps are recorded and end at once; the dice always roll 1 (full backoff). */
function recorder(): { waits: number[], deps: HttpDeps } {
  const waits: number[] = []
  return { waits, deps: { fetch: (...a) => fetch(...a), sleep: async (ms) => { waits.push(ms) }, now: () => 0, random: () => 1 } }
}

async function text(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  let out = ''
  for await (const chunk of chunks) out += Buffer.from(chunk).toString('utf8')
  return out
}

describe('postWithRetries', () => {
  it('sends JSON with the wire headers and the configured ones over them, to the real URL', async () => {
    const s = await serve({ body: 'ok' })
    const { endpoint } = endpointAt(s.url)
    const open = await postWithRetries(endpoint, { a: 1 }, true, undefined, recorder().deps)
    expect(await text(open.chunks)).toBe('ok')
    expect(s.requests[0]).toMatchObject({ method: 'POST', path: `/v1/chat?key=${SECRET}`, body: { a: 1 } })
    expect(s.requests[0]!.headers).toMatchObject({ 'content-type': 'application/json', accept: 'application/x-ndjson', authorization: 'Bearer wire', 'x-version': '2' })
  })

  it('retries a retryable status, waiting as retry-after-ms says, else backing off', async () => {
    const s = await serve({ status: 429, headers: { 'retry-after-ms': '250' } }, { status: 503 }, { body: 'ok' })
    const { endpoint, failures } = endpointAt(s.url)
    const { waits, deps } = recorder()
    expect(await text((await postWithRetries(endpoint, {}, false, undefined, deps)).chunks)).toBe('ok')
    expect(waits).toEqual([250, 200])
    expect(failures).toEqual([])
  })

  it('tells classify the status, body, attempts and request id once the retries are spent', async () => {
    const s = await serve({ status: 500, body: 'a' }, { status: 500, body: 'b' }, { status: 502, body: 'c', headers: { 'request-id': 'req_9' } })
    const { endpoint, failures } = endpointAt(s.url)
    await expect(postWithRetries(endpoint, {}, false, undefined, recorder().deps)).rejects.toMatchObject({ status: 502 })
    expect(failures).toEqual([{ status: 502, body: 'c', attempts: 3, requestId: 'req_9' }])
  })

  it('does not retry a status the provider does not call retryable', async () => {
    const s = await serve({ status: 400, body: 'bad' }, { body: 'ok' })
    const { endpoint, failures } = endpointAt(s.url)
    await expect(postWithRetries(endpoint, {}, false, undefined, recorder().deps)).rejects.toThrow('HTTP 400: bad')
    expect(failures).toHaveLength(1)
    expect(s.requests).toHaveLength(1)
  })

  it('fails at once when retry-after asks for longer than maxRetryDelayMs, and says so', async () => {
    const s = await serve({ status: 429, headers: { 'retry-after': '60' } })
    const { endpoint, failures } = endpointAt(s.url)
    const { waits, deps } = recorder()
    await expect(postWithRetries(endpoint, {}, false, undefined, deps)).rejects.toThrow('That is longer than maxRetryDelayMs (5000ms), so it was not retried.')
    expect(failures[0]).toMatchObject({ retryAfterMs: 60_000, attempts: 1 })
    expect(waits).toEqual([])
  })

  it.each(['-5', 'foo 2', 'soon'])('backs off when retry-after is %j, which says nothing readable', async (value) => {
    const s = await serve({ status: 503, headers: { 'retry-after': value } }, { body: 'ok' })
    const { endpoint, failures } = endpointAt(s.url)
    const { waits, deps } = recorder()
    expect(await text((await postWithRetries(endpoint, {}, false, undefined, deps)).chunks)).toBe('ok')
    expect(waits).toEqual([100])
    expect(failures).toEqual([])
  })

  it('names the shown URL, never the real one, when the server cannot be reached', async () => {
    const s = await serve()
    const { endpoint } = endpointAt(s.url, { retry: { maxRetries: 1, retryBaseDelayMs: 1, maxRetryDelayMs: 1, retryableStatus: transientStatus } })
    await s.close(); server = undefined
    const error = await postWithRetries(endpoint, {}, false, undefined, recorder().deps).then(() => { throw new Error('expected a failure') }, (e: unknown) => e as Error)
    expect(error).toMatchObject({ code: PROVIDER_UNAVAILABLE, message: expect.stringMatching(/^could not reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\?key=\[REDACTED\] \(2 attempts\): ECONNREFUSED/) })
    expect(error.cause).toBeInstanceOf(TypeError)
  })

  it('retries a connection cut after the headers, but never one cut after the body began', async () => {
    const s = await serve({ headers: { 'content-type': 'text/event-stream' }, then: 'destroy' }, { body: ['first', 'second'], then: 'destroy' }, { body: 'ok' })
    const { endpoint } = endpointAt(s.url)
    const open = await postWithRetries(endpoint, {}, true, undefined, recorder().deps)
    const seen: string[] = []
    const error = await (async () => { for await (const chunk of open.chunks) seen.push(Buffer.from(chunk).toString()) })().catch((e: unknown) => e)
    expect(seen.join('')).toContain('first')
    expect(error).toMatchObject({ code: PROVIDER_STREAM_INTERRUPTED, message: expect.stringContaining('broke off in the middle of the response after') })
    expect(s.requests).toHaveLength(2)
  })

  it('ends a wait between attempts as soon as the signal aborts, and sends nothing more', async () => {
    const s = await serve({ status: 429, headers: { 'retry-after': '3' } }, { body: 'ok' })
    const { endpoint } = endpointAt(s.url)
    const controller = new AbortController()
    const reason = new Error('stop')
    const deps: HttpDeps = { ...recorder().deps, sleep: (_, signal) => new Promise((_, reject) => { signal?.addEventListener('abort', () => reject(signal.reason)); controller.abort(reason) }) }
    await expect(postWithRetries(endpoint, {}, false, controller.signal, deps)).rejects.toMatchObject({ code: PROVIDER_ABORTED, name: 'AbortError', cause: reason })
    expect(s.requests).toHaveLength(1)
  })

  it.each([301, 302, 303, 307, 308])('never follows a %i redirect: the other server sees nothing, and the error says why', async (status) => {
    other = await startHttpFixture(() => ({ body: 'stolen' }))
    const s = await serve({ status, headers: { location: `${other.url}/steal?key=${SECRET}` }, body: 'moved' })
    const { endpoint, failures } = endpointAt(s.url)
    const error = await postWithRetries(endpoint, { conversation: 'private' }, false, undefined, recorder().deps).then(() => { throw new Error('expected a failure') }, (e: unknown) => e as ProviderError)
    expect(other.requests).toEqual([])
    expect(s.requests).toHaveLength(1)
    expect(failures).toEqual([])
    expect(error).toMatchObject({ code: PROVIDER_BAD_RESPONSE, name: 'ProviderBadResponseError', status })
    expect(error.message).toBe(`${endpoint.shownURL} answered HTTP ${status}, a redirect to ${other.url}/steal. Redirects are not followed, so that the credentials and the conversation go only to the configured server; if you trust that address, set baseURL to it`)
    expect(error.message).not.toContain(SECRET)
  })

  it('gives up on a server that never answers after idleTimeoutMs, retrying it like a connection failure', async () => {
    const s = await serve({ silent: true }, { silent: true })
    const { endpoint } = endpointAt(s.url, { idleTimeoutMs: IDLE_MS, retry: { maxRetries: 1, retryBaseDelayMs: 1, maxRetryDelayMs: 1, retryableStatus: transientStatus } })
    await expect(postWithRetries(endpoint, {}, false, undefined, recorder().deps)).rejects.toMatchObject({
      code: PROVIDER_UNAVAILABLE, message: `${endpoint.shownURL} sent no answer within ${IDLE_MS} ms (idleTimeoutMs) (2 attempts)`,
    })
    expect(s.requests).toHaveLength(2)
  })

  it('gives up on headers that are never followed by a body', async () => {
    const s = await serve({ headers: { 'content-type': 'text/event-stream' }, then: 'hang' })
    const { endpoint } = endpointAt(s.url, { idleTimeoutMs: IDLE_MS, retry: { maxRetries: 0, retryBaseDelayMs: 1, maxRetryDelayMs: 1, retryableStatus: transientStatus } })
    await expect(postWithRetries(endpoint, {}, true, undefined, recorder().deps)).rejects.toMatchObject({
      code: PROVIDER_UNAVAILABLE, message: `${endpoint.shownURL} sent its headers but no body within ${IDLE_MS} ms (idleTimeoutMs) (1 attempt)`,
    })
  })

  it('interrupts a body that goes silent in the middle, after the idle window', async () => {
    const s = await serve({ headers: { 'content-type': 'text/event-stream' }, body: ['first', 'second'], then: 'hang' })
    const { endpoint } = endpointAt(s.url, { idleTimeoutMs: IDLE_MS })
    const open = await postWithRetries(endpoint, {}, true, undefined, recorder().deps)
    const seen: string[] = []
    const error = await (async () => { for await (const chunk of open.chunks) seen.push(Buffer.from(chunk).toString()) })().catch((e: unknown) => e)
    expect(seen.join('')).toBe('firstsecond')
    expect(error).toMatchObject({ code: PROVIDER_STREAM_INTERRUPTED, message: `${s.url} sent nothing for ${IDLE_MS} ms (idleTimeoutMs) in the middle of the response, after 11 bytes; the request was given up` })
    expect(s.requests).toHaveLength(1)
  })

  it('does not time out a consumer that is slow to read: only waits for the server are timed', async () => {
    const s = await serve({ body: ['first', 'second'] })
    // Timers are fake: the idle window passes only when the test says so, while the consumer
    // holds a chunk; the server's answers (real I/O) need no time to pass to arrive.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const { endpoint } = endpointAt(s.url, { idleTimeoutMs: 20 })
      const open = await postWithRetries(endpoint, {}, true, undefined, recorder().deps)
      const seen: string[] = []
      for await (const chunk of open.chunks) {
        seen.push(Buffer.from(chunk).toString())
        vi.advanceTimersByTime(100)
      }
      expect(seen.join('')).toBe('firstsecond')
    } finally {
      vi.useRealTimers()
    }
  })

  it('reads at most MAX_ERROR_BODY_BYTES of an error body, then stops', async () => {
    const piece = 'e'.repeat(16 * 1024)
    const s = await serve({ status: 500, body: Array.from({ length: 64 }, () => piece) })
    const { endpoint, failures } = endpointAt(s.url, { retry: { maxRetries: 0, retryBaseDelayMs: 1, maxRetryDelayMs: 1, retryableStatus: transientStatus } })
    await expect(postWithRetries(endpoint, {}, false, undefined, recorder().deps)).rejects.toMatchObject({ status: 500 })
    expect(failures).toHaveLength(1)
    expect(failures[0]!.body).toBe('e'.repeat(MAX_ERROR_BODY_BYTES))
  })
})
