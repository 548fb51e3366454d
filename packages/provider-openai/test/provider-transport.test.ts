/**
 * What the transport refuses to do, against real 127.0.0.1 servers: follow a redirect (the key,
 * an Azure-style `api-key` header and the conversation would go to another server), or wait
 * forever for a server that went silent (`idleTimeoutMs`).
 */
import { fixtureServers, secretLeaks } from '@rein/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { PROVIDER_BAD_RESPONSE, PROVIDER_STREAM_INTERRUPTED, PROVIDER_UNAVAILABLE } from '../src/index.js'
import { createProvider } from '../src/provider.js'
import { drain, KEY, request } from './helpers.js'

const AZURE = 'azure-5e4d3c2b1a0f9e8d7c6b'

const { serve, closeAll } = fixtureServers()
afterEach(closeAll)

const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`

describe('redirects', () => {
  it.each([true, false])('are never followed (stream: %s): the other server receives nothing, and the error says why', async (stream) => {
    const other = await serve(() => ({ headers: { 'content-type': 'application/json' }, body: '{"choices":[{"message":{"content":"stolen"}}]}' }))
    const first = await serve(() => ({ status: 307, headers: { location: `${other.url}/steal` } }))
    const provider = createProvider({ baseURL: first.url, apiKey: KEY, model: 'deepseek-chat', headers: { 'api-key': AZURE }, stream })
    const error = await provider.generate(request()).then(() => { throw new Error('expected a failure') }, (e: unknown) => e)
    expect(other.requests).toEqual([])
    expect(first.requests).toHaveLength(1)
    expect(error).toMatchObject({ code: PROVIDER_BAD_RESPONSE, status: 307 })
    expect((error as Error).message).toBe(`${first.url}/chat/completions answered HTTP 307, a redirect to ${other.url}/steal. Redirects are not followed, so that the credentials and the conversation go only to the configured server; if you trust that address, set baseURL to it`)
    expect(secretLeaks(error, KEY, AZURE)).toEqual([])
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
    const server = await serve(() => ({ headers: { 'content-type': 'text/event-stream' }, body: [chunk('Hel'), chunk('lo')], then: 'hang' }))
    const provider = createProvider({ baseURL: server.url, apiKey: KEY, model: 'deepseek-chat', idleTimeoutMs: IDLE_MS })
    const { events, error } = await drain(provider.stream(request()))
    expect(events).toEqual([{ type: 'text-delta', text: 'Hel' }, { type: 'text-delta', text: 'lo' }])
    expect(error).toMatchObject({ code: PROVIDER_STREAM_INTERRUPTED, message: expect.stringContaining(`sent nothing for ${IDLE_MS} ms (idleTimeoutMs) in the middle of the response`) })
  })

  it('gives up on a server that never answers with PROVIDER_UNAVAILABLE, after every attempt', async () => {
    const server = await serve(() => ({ silent: true }))
    const provider = createProvider({ baseURL: server.url, apiKey: KEY, model: 'deepseek-chat', idleTimeoutMs: IDLE_MS, maxRetries: 1, retryBaseDelayMs: 1 })
    await expect(provider.generate(request())).rejects.toMatchObject({
      code: PROVIDER_UNAVAILABLE, message: `${server.url}/chat/completions sent no answer within ${IDLE_MS} ms (idleTimeoutMs) (2 attempts)`,
    })
    expect(server.requests).toHaveLength(2)
  })
})
