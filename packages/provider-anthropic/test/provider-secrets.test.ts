/**
 * No error shows the key or any configured header value — not in its message, stack, `cause`
 * or properties, as `util.inspect(error, { depth: 10 })` prints it — even when the server
 * echoes them back raw, JSON-escaped or URL-encoded, or the connection fails.
 */
import { inspect } from 'node:util'
import { secretLeaks } from '@rein/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { createProvider } from '../src/provider.js'
import { drain, KEY, providerFor, request, startServer, type ScriptedServer } from './helpers.js'
import { answerEvents, errorBody, jsonReply, sse, sseReply } from './wire.js'

let server: ScriptedServer | undefined
afterEach(async () => { await server?.close(); server = undefined })

const GATEWAY = 'gw-token-0b1c2d3e4f'
const SHORT = 'q7z'
const headers = { 'x-gateway-token': GATEWAY, 'x-team': SHORT }

function expectClean(error: unknown): void {
  expect(error).toBeInstanceOf(Error)
  expect(secretLeaks(error, KEY, GATEWAY)).toEqual([])
  const shown = inspect(error, { depth: 10 })
  expect(shown).not.toContain(KEY)
  expect(shown).not.toContain(GATEWAY)
  expect(shown).not.toMatch(/(?<![\w])q7z(?![\w])/)
  // Any percent-encoding of a dash, and the parts of the secrets that no spelling changes.
  expect(shown).not.toMatch(/%2d/i)
  expect(secretLeaks(error, '7f3a9c1e5b2d4f6a', '0b1c2d3e4f')).toEqual([])
}

describe('secrets in errors', () => {
  it.each([
    ['raw', `key ${KEY} and token ${GATEWAY} for team ${SHORT}`],
    ['JSON-escaped in a quoted body', JSON.stringify({ headers: { 'x-api-key': KEY, 'x-gateway-token': GATEWAY } })],
    ['URL-encoded', `url /v1/messages?key=${encodeURIComponent(KEY)}&t=${encodeURIComponent(GATEWAY).toLowerCase()}`],
    ['with `-` written %2D or %2d', `key ${KEY.replaceAll('-', '%2D')} and token ${GATEWAY.replaceAll('-', '%2d')}`],
  ])('a 401 that echoes them %s shows neither', async (_, echoed) => {
    server = await startServer(jsonReply(errorBody('authentication_error', echoed), 401))
    const error = await providerFor(server, { headers }).generate(request()).catch((e: unknown) => e)
    expectClean(error)
    expect((error as Error).message).toContain('[REDACTED]')
  })

  it('an error event that echoes them, mid-stream', async () => {
    const events = [...answerEvents({ role: 'assistant', content: 'x' }).slice(0, 3), { type: 'error', error: { type: 'api_error', message: `bad ${KEY} ${GATEWAY}` }, request_id: KEY }]
    server = await startServer(sseReply(sse(events)))
    const { error } = await drain(providerFor(server, { headers }).stream(request()))
    expectClean(error)
  })

  it('malformed SSE that holds them', async () => {
    server = await startServer(sseReply(`event: message_start\ndata: {"x-api-key": "${KEY}", "t": "${GATEWAY}"\n\n`))
    const { error } = await drain(providerFor(server, { headers }).stream(request()))
    expectClean(error)
  })

  it('a connection that cannot be made: the fetch error is attached as a redacted copy', async () => {
    server = await startServer()
    const url = server.url
    await server.close(); server = undefined
    const provider = createProvider({ baseURL: url, apiKey: KEY, model: 'm', maxTokens: 10, maxRetries: 0, headers })
    const error = await provider.generate(request()).catch((e: unknown) => e) as Error
    expectClean(error)
    expect(error.message).toMatch(/could not reach http:\/\/127\.0\.0\.1:\d+\/v1\/messages \(1 attempt\): ECONNREFUSED/)
    expect(error.cause).toBeInstanceOf(TypeError)
  })

  it('a fetch that fails with the request in its error keeps only the redacted network facts', async () => {
    const leaky = Object.assign(new TypeError(`fetch failed for ${KEY}`), {
      cause: Object.assign(new Error(`socket ${GATEWAY}`), { code: 'ECONNRESET', headers: { 'x-api-key': KEY } }),
      request: { headers: { 'x-api-key': KEY } },
    })
    const provider = createProvider({ apiKey: KEY, model: 'm', maxTokens: 10, maxRetries: 0, headers }, { fetch: async () => { throw leaky } })
    const error = await provider.generate(request()).catch((e: unknown) => e) as Error
    expectClean(error)
    expect((error.cause as Error & { cause: { code: string } }).cause.code).toBe('ECONNRESET')
  })
})
