import { fixtureServers, secretLeaks, visibleTexts } from '@rein/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { PROVIDER_AUTH, PROVIDER_CONFIG, PROVIDER_STREAM_INTERRUPTED, PROVIDER_UNAVAILABLE } from '../src/index.js'
import { createProvider } from '../src/provider.js'
import { startFixtureServer, type FixtureServer, type Reply } from './fixture-server.js'
import { drain, KEY, request } from './helpers.js'

let server: FixtureServer | undefined
const servers = fixtureServers()
afterEach(async () => { await server?.close(); server = undefined; await servers.closeAll() })

/** Asserts that `error` is an error in which none of `secrets` shows, wherever a person or a log could see it. */
function expectNoSecret(error: unknown, ...secrets: string[]): void {
  expect(error).toBeInstanceOf(Error)
  expect(secretLeaks(error, ...secrets)).toEqual([])
}

async function serve(...replies: Reply[]): Promise<FixtureServer> {
  server = await startFixtureServer(...replies)
  return server
}

/** Credentials in every place a user may put one. */
const AZURE = 'azure-9d8c7b6a5f4e3d2c1b0a'
const QUOTED = 'xk"quoted\\slashed-7f6e5d'
const PROXY = 'Token tok-0a1b2c3d4e5f'
const QUERY = 'q-s3cr3t+value/42=='
/** A part of each secret that survives any escaping (JSON, URL): none may show in any spelling. */
const SECRETS = ['4f9c2a7e1b3d5f6a', '9d8c7b6a5f4e3d2c1b0a', 'slashed-7f6e5d', '0a1b2c3d4e5f', 's3cr3t']

function everywhere(s: FixtureServer, stream = true) {
  return createProvider({
    baseURL: `${s.baseURL}?api-version=2024-06-01&api-key=${QUERY}`,
    apiKey: KEY,
    model: 'deepseek-chat',
    headers: { 'api-key': AZURE, 'x-api-key': QUOTED, 'x-proxy-token': PROXY, 'user-agent': 'rein-test' },
    stream,
    maxRetries: 0,
  })
}

async function failure(provider: ReturnType<typeof createProvider>, stream = true): Promise<Error> {
  if (!stream) return provider.generate(request()).then(() => { throw new Error('expected a failure') }, (e: Error) => e)
  const { error } = await drain(provider.stream(request()))
  return error as Error
}

describe('no secret reaches an error', () => {
  it.each([
    ['a JSON error message (401)', { json: 'error-echo.json' }, true],
    ['a JSON error object quoted whole, JSON-escaped (400)', { json: 'error-echo-detail.json' }, false],
    ['a plain-text body (502)', { json: 'error-echo-text.json' }, true],
    ['an error event in the middle of a stream', { sse: 'stream-error-echo.sse' }, true],
  ] as const)('when the server echoes every credential in %s', async (_, reply, stream) => {
    const s = await serve(reply)
    const error = await failure(everywhere(s, stream), stream)
    const received = s.requests[0]!
    // The server did receive each secret, so it had every one to echo.
    expect(received.headers).toMatchObject({ 'api-key': AZURE, 'x-api-key': QUOTED, 'x-proxy-token': PROXY, authorization: `Bearer ${KEY}` })
    expect(received.path).toBe(`/v1/chat/completions?api-version=2024-06-01&api-key=${QUERY}`)
    expectNoSecret(error, ...SECRETS)
    expect(error.message).toContain('[REDACTED]')
    expect(error.message).toContain('?api-version=2024-06-01&api-key=[REDACTED]')
  })

  it('when the connection fails: the endpoint is shown without its query value, and the cause chain is redacted', async () => {
    const dead = await startFixtureServer()
    const provider = everywhere(dead)
    await dead.close()
    const error = await failure(provider) as Error & { cause: Error & { cause?: { code?: string } } }
    expect(error).toMatchObject({ code: PROVIDER_UNAVAILABLE })
    expect(error.message).toContain('/v1/chat/completions?api-version=2024-06-01&api-key=[REDACTED] (1 attempt): ECONNREFUSED')
    expect(error.cause).toBeInstanceOf(TypeError)
    expect(error.cause.cause?.code).toBe('ECONNREFUSED')
    expectNoSecret(error, ...SECRETS)
  })

  it('when the body breaks off in the middle', async () => {
    const s = await serve({ sse: 'stream-partial.sse', then: 'hang' })
    const events = everywhere(s).stream(request())[Symbol.asyncIterator]()
    await events.next()
    s.requests[0]!.destroy()
    const error = await drain({ [Symbol.asyncIterator]: () => events }).then((r) => r.error)
    expect(error).toMatchObject({ code: PROVIDER_STREAM_INTERRUPTED })
    expectNoSecret(error, ...SECRETS)
  })

  it('when the key holds a line break: refused at creation, before any request, without the key', async () => {
    const s = await serve()
    const key = 'sk-live-7c1e\n9b2d4f6a8c0e'
    let error: unknown
    try { createProvider({ baseURL: s.baseURL, apiKey: key, model: 'm' }) } catch (e) { error = e }
    expect(error).toMatchObject({ code: PROVIDER_CONFIG, message: expect.stringContaining('"apiKey" contains a line break') })
    expectNoSecret(error, 'sk-live-7c1e', '9b2d4f6a8c0e')
    expect(s.requests).toEqual([])
  })
})

describe('a key in another spelling', () => {
  it('is hidden when the server echoes it with `-` written %2D (or %2d), in any mix', async () => {
    // The server quotes what it received, each dash percent-encoded in another hex case.
    const echo = await servers.serve(() => ({
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { message: `bad key ${KEY.replace('-', '%2D').replaceAll('-', '%2d')} / ${KEY.replaceAll('-', '%2D')}`, type: 'invalid_request_error' } }),
    }))
    const error = await failure(createProvider({ baseURL: `${echo.url}/v1`, apiKey: KEY, model: 'm', maxRetries: 0 }))
    expect(error).toMatchObject({ code: PROVIDER_AUTH })
    expect(error.message).toContain('bad key [REDACTED] / [REDACTED]')
    expect(error.message).not.toMatch(/%2d/i)
    expectNoSecret(error, '4f9c2a7e1b3d5f6a')
  })
})

describe('a configured key in a config error', () => {
  it.each([
    ['the baseURL path of a non-http URL', { baseURL: `ftp://x/${KEY}` }],
    ['the baseURL path, percent-encoded', { baseURL: `ftp://x/${encodeURIComponent(KEY).replaceAll('-', '%2D')}` }],
    ['a number field', { temperature: KEY }],
    ['a number field, with `-` written %2D', { maxTokens: KEY.replaceAll('-', '%2D') }],
    ['a header value written into another field', { headers: { 'x-token': 'gw-0123456789abcdef' }, parallelToolCalls: 'gw-0123456789abcdef' }],
  ] as [string, Record<string, unknown>][])('is never printed when it is in %s', (_, fields) => {
    let error: unknown
    try { createProvider({ apiKey: KEY, model: 'm', ...fields } as never) } catch (e) { error = e }
    expect(error).toMatchObject({ code: PROVIDER_CONFIG })
    expectNoSecret(error, '4f9c2a7e1b3d5f6a', '0123456789abcdef')
    expect((error as Error).message).not.toMatch(/%2d/i)
  })
})

describe('a short key', () => {
  it('is hidden where it stands as a word, and words that merely contain it are left whole', async () => {
    const s = await serve({ json: 'error-echo.json' })
    const provider = createProvider({ baseURL: s.baseURL, apiKey: 'abc', model: 'deepseek-chat' })
    const error = await failure(provider)
    expect(s.requests[0]!.headers.authorization).toBe('Bearer abc')
    expect(error.message).toContain('authorization=[REDACTED] api-key=')
    expect(error.message).toContain('Labcoat keys (abcd-style) are not accepted.')
    expect(error.message).toContain('Check that apiKey is set')
    const word = /(?<![\p{L}\p{N}_])abc(?![\p{L}\p{N}_])/u
    expect(visibleTexts(error).filter(({ text }) => word.test(text))).toEqual([])
  })
})

describe('a server without keys (Ollama, llama.cpp)', () => {
  it('is used without an apiKey: no Authorization header is sent', async () => {
    const s = await serve({ sse: 'stream-text.sse' }, { json: 'completion-text.json' })
    const provider = createProvider({ baseURL: s.baseURL, model: 'llama3' })
    expect((await provider.generate(request())).content).toBe('Héllo, 世界!')
    expect(s.requests[0]!.headers).not.toHaveProperty('authorization')
    await createProvider({ baseURL: s.baseURL, model: 'llama3', stream: false }).generate(request())
    expect(s.requests[1]!.headers).not.toHaveProperty('authorization')
  })

  it('says that the server wants an apiKey when it answers 401', async () => {
    const s = await serve({ json: 'error-401.json' })
    const error = await failure(createProvider({ baseURL: s.baseURL, model: 'llama3' }))
    expect(error).toMatchObject({ code: PROVIDER_AUTH, status: 401 })
    expect(error.message).toMatch(/^authentication failed at http:\/\/127\.0\.0\.1:\d+\/v1 \(HTTP 401\): Incorrect API key provided: \. /)
    expect(error.message).toMatch(/This server wants an API key: set apiKey in the provider config \(e\.g\. apiKey: \$\{env:OPENAI_API_KEY\}\)\.$/)
  })

  it('points at the headers when they carried the credential', async () => {
    const s = await serve({ json: 'error-echo.json' })
    const error = await failure(createProvider({ baseURL: s.baseURL, model: 'm', headers: { authorization: PROXY } }))
    expect(error.message).toContain('Check the credentials in headers (or in the baseURL query), or set apiKey.')
    expect(s.requests[0]!.headers.authorization).toBe(PROXY)
    expectNoSecret(error, PROXY, 'tok-0a1b2c3d4e5f')
  })
})
