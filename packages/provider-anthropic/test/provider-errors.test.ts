/**
 * Failures say what happened and what to check: a refused key (never shown), an unknown
 * model, a prompt that is too long, an `error` event in the middle of a stream (the text
 * before it was shown), malformed SSE, a stream that stops early, and an abort mid-stream.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  ProviderAuthError, ProviderBadResponseError, ProviderContextLengthError, ProviderModelNotFoundError,
  ProviderStreamInterruptedError,
} from '../src/index.js'
import { drain, KEY, providerFor, request, startServer, textOf, type ScriptedServer } from './helpers.js'
import { answerEvents, errorBody, jsonReply, sse, sseReply } from './wire.js'

let server: ScriptedServer | undefined
afterEach(async () => { await server?.close(); server = undefined })

const failure = (pending: Promise<unknown>) => pending.then(() => { throw new Error('expected a failure') }, (e: unknown) => e as Error & Record<string, unknown>)

describe('HTTP errors', () => {
  it('401: names the server and says to check apiKey, without the key the server echoed', async () => {
    server = await startServer(jsonReply(errorBody('authentication_error', `invalid x-api-key: ${KEY}`), 401, { 'request-id': 'req_hdr' }))
    const error = await failure(providerFor(server).generate(request()))
    expect(error).toBeInstanceOf(ProviderAuthError)
    expect(error).toMatchObject({ code: 'PROVIDER_AUTH', status: 401, errorType: 'authentication_error', requestId: 'req_test_1' })
    expect(error.message).toBe(`${server.url} refused the credentials (HTTP 401 authentication_error): invalid x-api-key: [REDACTED]. Check that apiKey holds a valid Anthropic API key (it is sent as x-api-key). (request id req_test_1)`)
  })

  it('404: names the model and says that baseURL is the server root', async () => {
    server = await startServer(jsonReply(errorBody('not_found_error', 'model: claude-nope'), 404))
    const error = await failure(providerFor(server, { model: 'claude-nope' }).generate(request()))
    expect(error).toBeInstanceOf(ProviderModelNotFoundError)
    expect(error.message).toMatch(/^model "claude-nope" was not found at http:\/\/127\.0\.0\.1:\d+ \(HTTP 404 not_found_error\): model: claude-nope\. Check the model name, and that baseURL is the server root/)
  })

  it('400 "prompt is too long": a context-length error', async () => {
    server = await startServer(jsonReply(errorBody('invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum'), 400))
    await expect(providerFor(server).generate(request())).rejects.toBeInstanceOf(ProviderContextLengthError)
  })

  it('uses the request-id header when the body has none, and quotes a body that is not JSON', async () => {
    server = await startServer({ status: 502, headers: { 'request-id': 'req_hdr' }, body: 'Bad Gateway\n' })
    const error = await failure(providerFor(server, { maxRetries: 0 }).generate(request()))
    expect(error.message).toBe(`${server.url} is unavailable (HTTP 502): Bad Gateway. (request id req_hdr)`)
  })
})

describe('a stream that goes wrong', () => {
  it('an error event mid-stream: the text before it was yielded, then the error, not retried', async () => {
    const events = answerEvents({ role: 'assistant', content: 'The answer is' }, { piece: 10 })
    const broken = [...events.slice(0, 4), { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]
    server = await startServer(sseReply(sse(broken)))
    const { events: seen, error } = await drain(providerFor(server).stream(request()))
    expect(textOf(seen)).toBe('The answer')
    expect(seen.some((e) => e.type === 'message')).toBe(false)
    expect(error).toBeInstanceOf(ProviderStreamInterruptedError)
    expect(error).toMatchObject({ errorType: 'overloaded_error' })
    expect((error as Error).message).toBe(`${server.url} reported an error in the middle of the answer (overloaded_error): Overloaded. It was not retried: part of the answer may already have been shown.`)
    expect(server.requests).toHaveLength(1)
  })

  it.each([
    ['data that is not JSON', 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,\n\n', /stream event #4 \(content_block_delta\) that is not JSON, so it is not a Messages API stream: \{"type"/],
    ['an event without a type', 'data: {"index":0}\n\n', /stream event #4 that has no type/],
    ['a delta for a block that never started', 'event: content_block_delta\ndata: {"type":"content_block_delta","index":4,"delta":{"type":"text_delta","text":"x"}}\n\n', /adds to block #4, which never started/],
    ['tool input sent to a text block', 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{"}}\n\n', /sends tool input to block #0, which is not a tool_use block/],
  ])('malformed SSE (%s): a clear bad-response error', async (_, bad, message) => {
    const start = sse(answerEvents({ role: 'assistant', content: 'ab' }).slice(0, 3))
    server = await startServer(sseReply(start + bad))
    const { error } = await drain(providerFor(server).stream(request()))
    expect(error).toBeInstanceOf(ProviderBadResponseError)
    expect(error).toMatchObject({ code: 'PROVIDER_BAD_RESPONSE' })
    expect((error as Error).message).toMatch(message)
  })

  it('a stream that ends before message_stop or a stop reason was interrupted', async () => {
    server = await startServer(sseReply(sse(answerEvents({ role: 'assistant', content: 'half' }).slice(0, 4))))
    const error = await failure(providerFor(server).generate(request()))
    expect(error).toBeInstanceOf(ProviderStreamInterruptedError)
    expect(error.message).toMatch(/ended before the answer was complete \(after 4 events, without message_stop\)/)
  })

  it('an abort mid-stream rejects at once and closes the connection', async () => {
    const events = answerEvents({ role: 'assistant', content: 'slow answer' })
    server = await startServer(sseReply(sse(events.slice(0, 4)), { then: 'hang' }))
    const controller = new AbortController()
    const iterator = providerFor(server).stream(request(controller.signal))[Symbol.asyncIterator]()
    expect(await iterator.next()).toMatchObject({ value: { type: 'text-delta' } })
    const started = Date.now()
    const next = iterator.next()
    controller.abort()
    await expect(next).rejects.toMatchObject({ name: 'AbortError', code: 'PROVIDER_ABORTED' })
    // Far below the idle timeout (120 s) that would otherwise end the hanging stream, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('a signal aborted before the request sends nothing', async () => {
    server = await startServer()
    await expect(providerFor(server).generate(request(AbortSignal.abort()))).rejects.toMatchObject({ name: 'AbortError' })
    expect(server.requests).toHaveLength(0)
  })
})
