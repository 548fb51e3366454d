/**
 * What the transport refuses to do, against real 127.0.0.1 servers: follow a redirect (the
 * `x-api-key` and the conversation would go to another server), or wait forever for a server
 * that went silent (`idleTimeoutMs`).
 */
import { fixtureServers, secretLeaks } from '@rein/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { PROVIDER_BAD_RESPONSE, PROVIDER_STREAM_INTERRUPTED, PROVIDER_UNAVAILABLE } from '../src/index.js'
import { createProvider } from '../src/provider.js'
import { drain, KEY, request } from './helpers.js'
import { answerEvents, sse } from './wire.js'

const { serve, closeAll } = fixtureServers()
afterEach(closeAll)

const config = (baseURL: string) => ({ baseURL, apiKey: KEY, model: 'claude-test', maxTokens: 1024, retryBaseDelayMs: 1 })

describe('redirects', () => {
  it.each([true, false])('are never followed (stream: %s): the other server receives nothing, and the error says why', async (stream) => {
    const other = await serve(() => ({ headers: { 'content-type': 'application/json' }, body: '{"type":"message","content":[]}' }))
    const first = await serve(() => ({ status: 307, headers: { location: `${other.url}/steal/v1/messages` } }))
    const error = await createProvider({ ...config(first.url), stream }).generate(request()).then(() => { throw new Error('expected a failure') }, (e: unknown) => e)
    expect(other.requests).toEqual([])
    expect(first.requests).toHaveLength(1)
    expect(error).toMatchObject({ code: PROVIDER_BAD_RESPONSE, status: 307 })
    expect((error as Error).message).toBe(`${first.url}/v1/messages answered HTTP 307, a redirect to ${other.url}/steal/v1/messages. Redirects are not followed, so that the credentials and the conversation go only to the configured server; if you trust that address, set baseURL to it`)
    expect(secretLeaks(error, KEY)).toEqual([])
  })
})

/**
 * The idle window waited out below. The fixture server shares this process's event loop, and
 * after a stall of the loop its timers run before it reads the bytes already waiting: the window
 * must be longer than a loaded machine stalls.
 */
const IDLE_MS = 1_000

describe('idleTimeoutMs', () => {
  it('ends a stream that goes silent with PROVIDER_STREAM_INTERRUPTED, after what arrived', async () => {
    const events = answerEvents({ role: 'assistant', content: 'Hello' }, { piece: 5 })
    const started = sse(events.slice(0, 4))
    const server = await serve(() => ({ headers: { 'content-type': 'text/event-stream' }, body: [started], then: 'hang' }))
    const { events: seen, error } = await drain(createProvider({ ...config(server.url), idleTimeoutMs: IDLE_MS }).stream(request()))
    expect(seen).toEqual([{ type: 'text-delta', text: 'Hello' }])
    expect(error).toMatchObject({ code: PROVIDER_STREAM_INTERRUPTED, message: expect.stringContaining(`sent nothing for ${IDLE_MS} ms (idleTimeoutMs) in the middle of the response`) })
  })

  it('gives up on a server that never answers with PROVIDER_UNAVAILABLE, after every attempt', async () => {
    const server = await serve(() => ({ silent: true }))
    await expect(createProvider({ ...config(server.url), idleTimeoutMs: IDLE_MS, maxRetries: 1 }).generate(request())).rejects.toMatchObject({
      code: PROVIDER_UNAVAILABLE, message: `${server.url}/v1/messages sent no answer within ${IDLE_MS} ms (idleTimeoutMs) (2 attempts)`,
    })
    expect(server.requests).toHaveLength(2)
  })
})
