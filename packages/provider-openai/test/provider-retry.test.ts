/**
 * Retries as this provider uses the kit's: 429 and 5xx (and connections that break before the
 * body) are retried up to `maxRetries` times, waiting as `retry-after` says (else backing off),
 * with the same request; a `retry-after` above `maxRetryDelayMs` fails at once; an abort ends a
 * wait; errors name the endpoint.
 */
import { sleep } from '@rein/provider-kit'
import { afterEach, describe, expect, it } from 'vitest'
import { PROVIDER_ABORTED, PROVIDER_RATE_LIMITED, PROVIDER_UNAVAILABLE } from '../src/index.js'
import { startFixtureServer, type FixtureServer, type Reply } from './fixture-server.js'
import { gate, KEY, providerFor, request } from './helpers.js'

let server: FixtureServer | undefined
afterEach(async () => { await server?.close(); server = undefined })

async function serve(...replies: Reply[]): Promise<FixtureServer> {
  server = await startFixtureServer(...replies)
  return server
}

/** Test deps: sleeps are recorded and end at once; the dice always roll 1 (full backoff). */
function recorder() {
  const sleeps: number[] = []
  return { sleeps, deps: { sleep: async (ms: number) => { sleeps.push(ms) }, random: () => 1 } }
}

describe('retries', () => {
  it('honours retry-after in seconds on a 429, then returns the answer; the request is sent again unchanged', async () => {
    const s = await serve({ json: 'error-429.json' }, { sse: 'stream-text.sse' })
    const { sleeps, deps } = recorder()
    const message = await providerFor(s, {}, deps).generate(request())
    expect(message.content).toBe('Héllo, 世界!')
    expect(sleeps).toEqual([2000])
    expect(s.requests).toHaveLength(2)
    expect(s.requests[1]!.body).toEqual(s.requests[0]!.body)
    expect(s.requests[1]!.headers.authorization).toBe(`Bearer ${KEY}`)
  })

  it('honours retry-after as an HTTP date', async () => {
    const s = await serve({ json: 'error-429.json', headers: { 'retry-after': 'Sat, 30 Nov 2024 12:00:05 GMT' } }, { sse: 'stream-text.sse' })
    const { sleeps, deps } = recorder()
    await providerFor(s, {}, { ...deps, now: () => Date.parse('2024-11-30T12:00:00Z') }).generate(request())
    expect(sleeps).toEqual([5000])
  })

  it('backs off exponentially on 5xx without retry-after, then returns the answer', async () => {
    const s = await serve({ json: 'error-500.json' }, { json: 'error-503.json' }, { sse: 'stream-text.sse' })
    const { sleeps, deps } = recorder()
    expect((await providerFor(s, { retryBaseDelayMs: 250 }, deps).generate(request())).content).toBe('Héllo, 世界!')
    expect(sleeps).toEqual([250, 500])
  })

  it('gives up after maxRetries with the last status, the attempt count and the server text', async () => {
    const s = await serve({ json: 'error-503.json' }, { json: 'error-503.json' }, { json: 'error-503.json' })
    const { sleeps, deps } = recorder()
    await expect(providerFor(s, {}, deps).generate(request())).rejects.toMatchObject({
      code: PROVIDER_UNAVAILABLE, status: 503, message: expect.stringContaining('(HTTP 503) after 3 attempts: Service is too busy'),
    })
    expect(sleeps).toHaveLength(2)
    expect(s.requests).toHaveLength(3)
  })

  it('makes exactly one request when maxRetries is 0', async () => {
    const s = await serve({ json: 'error-429.json' }, { sse: 'stream-text.sse' })
    await expect(providerFor(s, { maxRetries: 0 }, recorder().deps).generate(request())).rejects.toMatchObject({ code: PROVIDER_RATE_LIMITED, retryAfterMs: 2000 })
    expect(s.requests).toHaveLength(1)
  })

  it('fails at once when retry-after is longer than maxRetryDelayMs, and says so', async () => {
    const s = await serve({ json: 'error-429.json', headers: { 'retry-after': '3600' } }, { sse: 'stream-text.sse' })
    const { sleeps, deps } = recorder()
    await expect(providerFor(s, {}, deps).generate(request())).rejects.toMatchObject({
      code: PROVIDER_RATE_LIMITED, message: expect.stringContaining('longer than maxRetryDelayMs (60000ms), so it was not retried'),
    })
    expect(sleeps).toEqual([])
  })

  it('fails at once, with a finite wait, when retry-after is too large to hold', async () => {
    const s = await serve({ json: 'error-429.json', headers: { 'retry-after': '9'.repeat(400) } }, { sse: 'stream-text.sse' })
    const { sleeps, deps } = recorder()
    const error = await providerFor(s, {}, deps).generate(request()).then(() => { throw new Error('expected a failure') }, (e: unknown) => e as Error)
    expect(error).toMatchObject({ code: PROVIDER_RATE_LIMITED, retryAfterMs: Number.MAX_SAFE_INTEGER, message: expect.stringContaining('longer than maxRetryDelayMs (60000ms)') })
    expect(error.message).not.toContain('Infinity')
    expect(sleeps).toEqual([])
  })

  it.each(['-5', 'foo 2'])('backs off when retry-after is %j, which is neither seconds nor an HTTP date', async (value) => {
    const s = await serve({ json: 'error-429.json', headers: { 'retry-after': value } }, { sse: 'stream-text.sse' })
    const { sleeps, deps } = recorder()
    expect((await providerFor(s, { retryBaseDelayMs: 250 }, deps).generate(request())).content).toBe('Héllo, 世界!')
    expect(sleeps).toEqual([250])
  })

  it('retries a connection dropped before any response', async () => {
    const s = await serve({ dropBeforeResponse: true }, { sse: 'stream-text.sse' })
    const { sleeps, deps } = recorder()
    expect((await providerFor(s, {}, deps).generate(request())).content).toBe('Héllo, 世界!')
    expect(sleeps).toEqual([1])
  })

  it('retries a connection dropped after the headers, before any byte of the body', async () => {
    const s = await serve({ dropAfterHeaders: true }, { sse: 'stream-text.sse' })
    const { deps } = recorder()
    expect((await providerFor(s, {}, deps).generate(request())).content).toBe('Héllo, 世界!')
    expect(s.requests).toHaveLength(2)
  })

  it('says when the connection keeps closing right after the headers', async () => {
    const s = await serve({ dropAfterHeaders: true })
    await expect(providerFor(s, { maxRetries: 0 }).generate(request())).rejects.toMatchObject({
      code: PROVIDER_UNAVAILABLE, message: expect.stringContaining('closed the connection before sending a body (1 attempt)'),
    })
  })

  it('reports an unreachable server as unavailable, naming the endpoint and the reason', async () => {
    const dead = await startFixtureServer()
    const provider = providerFor(dead, { maxRetries: 1 }, recorder().deps)
    await dead.close()
    await expect(provider.generate(request())).rejects.toMatchObject({
      code: PROVIDER_UNAVAILABLE, message: expect.stringMatching(/could not reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions \(2 attempts\): ECONNREFUSED/),
    })
  })
})

describe('abort during a retry wait', () => {
  it('ends the wait at once and makes no further request', async () => {
    const s = await serve({ json: 'error-429.json', headers: { 'retry-after': '30' } }, { sse: 'stream-text.sse' })
    const waiting = gate<number>()
    const controller = new AbortController()
    const provider = providerFor(s, {}, { sleep: (ms, signal) => { waiting.resolve(ms); return sleep(ms, signal) } })
    const answer = provider.generate(request(controller.signal))
    expect(await waiting.promise).toBe(30_000)
    controller.abort()
    await expect(answer).rejects.toMatchObject({ code: PROVIDER_ABORTED, name: 'AbortError' })
    expect(s.requests).toHaveLength(1)
  })
})
