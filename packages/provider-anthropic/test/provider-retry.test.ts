/**
 * Retries: 429, 529 (overloaded), other 5xx and connections that break before the body are
 * retried up to `maxRetries` times, waiting as `retry-after` says (else backing off); the
 * server's `x-should-retry` wins; a break after the body began is never retried; an abort
 * ends a wait at once.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { ProviderBadRequestError, ProviderRateLimitedError, ProviderStreamInterruptedError, ProviderUnavailableError } from '../src/index.js'
import { drain, providerFor, request, startServer, textOf, type ScriptedServer } from './helpers.js'
import { answerEvents, answerReply, errorBody, jsonReply, sse, sseReply } from './wire.js'

let server: ScriptedServer | undefined
afterEach(async () => { await server?.close(); server = undefined })

const ok = (r: { body: any }) => answerReply(r, { role: 'assistant', content: 'finally' })
const overloaded = (headers: Record<string, string> = {}) => jsonReply(errorBody('overloaded_error', 'Overloaded'), 529, headers)

/** A sleep that records what it was asked to wait and returns at once. */
function recordingSleep() {
  const waits: number[] = []
  return { waits, sleep: async (ms: number) => { waits.push(ms) } }
}

describe('retries', () => {
  it('waits as retry-after says after a 429, then succeeds', async () => {
    server = await startServer(jsonReply(errorBody('rate_limit_error', 'slow down'), 429, { 'retry-after': '3' }), ok)
    const { waits, sleep } = recordingSleep()
    expect((await providerFor(server, {}, { sleep }).generate(request())).content).toBe('finally')
    expect(waits).toEqual([3000])
    expect(server.requests).toHaveLength(2)
  })

  it('honours retry-after-ms, and backs off without a header, over 529 and 500', async () => {
    server = await startServer(overloaded({ 'retry-after-ms': '250' }), jsonReply(errorBody('api_error', 'oops'), 500), ok)
    const { waits, sleep } = recordingSleep()
    await providerFor(server, { retryBaseDelayMs: 100 }, { sleep, random: () => 1 }).generate(request())
    expect(waits).toEqual([250, 200])
  })

  it('retries a connection reset before the response, and one cut right after the headers', async () => {
    server = await startServer({ destroy: true }, { status: 200, headers: { 'content-type': 'text/event-stream' }, body: [], then: 'destroy' }, ok)
    const { events } = await drain(providerFor(server).stream(request()))
    expect(textOf(events)).toBe('finally')
    expect(server.requests).toHaveLength(3)
  })

  it('gives up after maxRetries, saying how often it tried, with the status, type and request id', async () => {
    server = await startServer(overloaded(), overloaded(), overloaded())
    const error = await providerFor(server).generate(request()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderUnavailableError)
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', status: 529, errorType: 'overloaded_error', requestId: 'req_test_1' })
    expect((error as Error).message).toBe(`${server.url} is overloaded (HTTP 529 overloaded_error) after 3 attempts: Overloaded. Try again later, or raise maxRetries. (request id req_test_1)`)
  })

  it('fails at once when retry-after asks for longer than maxRetryDelayMs', async () => {
    server = await startServer(jsonReply(errorBody('rate_limit_error', 'quota'), 429, { 'retry-after': '120' }))
    const error = await providerFor(server, { maxRetryDelayMs: 5000 }).generate(request()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderRateLimitedError)
    expect(error).toMatchObject({ retryAfterMs: 120_000 })
    expect((error as Error).message).toMatch(/asked to wait 120s\. That is longer than maxRetryDelayMs \(5000ms\), so it was not retried/)
    expect(server.requests).toHaveLength(1)
  })

  it('follows x-should-retry over the status', async () => {
    server = await startServer(jsonReply(errorBody('api_error', 'no'), 500, { 'x-should-retry': 'false' }))
    await expect(providerFor(server).generate(request())).rejects.toBeInstanceOf(ProviderUnavailableError)
    expect(server.requests).toHaveLength(1)
    server.script(jsonReply(errorBody('invalid_request_error', 'busy'), 400, { 'x-should-retry': 'true' }), ok)
    expect((await providerFor(server).generate(request())).content).toBe('finally')
  })

  it('does not retry a 400', async () => {
    server = await startServer(jsonReply(errorBody('invalid_request_error', 'messages: field required'), 400))
    await expect(providerFor(server).generate(request())).rejects.toBeInstanceOf(ProviderBadRequestError)
    expect(server.requests).toHaveLength(1)
  })

  it('does not retry once the body has begun: the text already shown stays, and the break is reported', async () => {
    const events = answerEvents({ role: 'assistant', content: 'partial answer here' })
    server = await startServer(sseReply(sse(events.slice(0, 5)), { then: 'destroy' }), ok)
    const { events: seen, error } = await drain(providerFor(server).stream(request()))
    expect(textOf(seen)).not.toBe('')
    expect(error).toBeInstanceOf(ProviderStreamInterruptedError)
    expect(server.requests).toHaveLength(1)
  })

  it('ends a retry-after wait as soon as the signal aborts', async () => {
    server = await startServer(jsonReply(errorBody('rate_limit_error', 'wait'), 429, { 'retry-after': '30' }))
    const controller = new AbortController()
    const pending = providerFor(server).generate(request(controller.signal))
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5))
    await new Promise((r) => setTimeout(r, 20))
    const started = Date.now()
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError', code: 'PROVIDER_ABORTED' })
    // Far below the 30 s the server asked to wait, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(server.requests).toHaveLength(1)
  })
})
