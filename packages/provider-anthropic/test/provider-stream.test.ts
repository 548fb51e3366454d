/**
 * Streamed answers over a real 127.0.0.1 server speaking the Messages API's SSE: text arrives
 * as deltas, parallel `tool_use` blocks are assembled from `input_json_delta` partials cut
 * anywhere (inside JSON escapes, inside UTF-8 characters, across chunk boundaries), and the
 * final message carries the stop reason and usage.
 */
import type { AssistantMessage } from '@rein/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { drain, providerFor, request, startServer, textOf, type ScriptedServer } from './helpers.js'
import { answerEvents, byteSlices, sse, sseReply } from './wire.js'

let server: ScriptedServer | undefined
afterEach(async () => { await server?.close(); server = undefined })

const TWO_CALLS: AssistantMessage = {
  role: 'assistant',
  content: 'Reading both — «ok».',
  toolCalls: [
    { id: 'toolu_01', name: 'read_file', arguments: '{"path": "żółw/🐢 a.txt", "note": "say \\"hi\\""}' },
    { id: 'toolu_02', name: 'read_file', arguments: '{"path":"b.txt","lines":[1,2,3]}' },
  ],
}

describe('a streamed answer', () => {
  it('yields the text as deltas, then one message with the stop reason and usage', async () => {
    server = await startServer(sseReply(sse(answerEvents({ role: 'assistant', content: 'Hello there, rider.' }, { piece: 4 }))))
    const { events, error } = await drain(providerFor(server).stream(request()))
    expect(error).toBeUndefined()
    expect(events.slice(0, -1).map((e) => e.type)).toEqual(Array(5).fill('text-delta'))
    expect(textOf(events)).toBe('Hello there, rider.')
    expect(events.at(-1)).toEqual({ type: 'message', message: { role: 'assistant', content: 'Hello there, rider.', finishReason: 'end_turn', usage: { inputTokens: 12, outputTokens: 34 } } })
  })

  it('posts to <baseURL>/v1/messages with the key, the API version and stream: true', async () => {
    server = await startServer(sseReply(sse(answerEvents({ role: 'assistant', content: 'ok' }))))
    await providerFor(server).generate(request())
    const [seen] = server.requests
    expect(seen!.path).toBe('/v1/messages')
    expect(seen!.headers).toMatchObject({ 'x-api-key': 'sk-ant-test-7f3a9c1e5b2d4f6a', 'anthropic-version': '2023-06-01', accept: 'text/event-stream', 'content-type': 'application/json' })
    expect(seen!.headers.authorization).toBeUndefined()
    expect(seen!.body).toMatchObject({ model: 'claude-test', max_tokens: 1024, stream: true })
  })

  it('assembles two parallel tool_use blocks from partials cut inside escapes, characters and chunks', async () => {
    const body = sse(answerEvents(TWO_CALLS, { piece: 1 }))
    const slices = byteSlices(body, 11)
    // The slices really do cut UTF-8 characters: some slice starts with a continuation byte.
    expect(slices.some((s) => (s[0]! & 0xc0) === 0x80)).toBe(true)
    server = await startServer(sseReply(body, { slice: 11 }))
    const message = await providerFor(server).generate(request())
    expect(message.toolCalls).toEqual(TWO_CALLS.toolCalls)
    expect(message.content).toBe(TWO_CALLS.content)
    expect(message.finishReason).toBe('tool_use')
  })

  it('hands the arguments over as the raw JSON text the model wrote, spacing included', async () => {
    server = await startServer(sseReply(sse(answerEvents(TWO_CALLS, { piece: 2 }))))
    const message = await providerFor(server).generate(request())
    expect(message.toolCalls?.[0]?.arguments).toBe('{"path": "żółw/🐢 a.txt", "note": "say \\"hi\\""}')
  })

  it.each([
    ['end_turn', { role: 'assistant', content: 'done' }],
    ['tool_use', TWO_CALLS],
    ['max_tokens', { role: 'assistant', content: 'cut sho' }],
    ['stop_sequence', { role: 'assistant', content: 'until' }],
  ] as [string, AssistantMessage][])('reports stop reason %s on the message', async (stopReason, answer) => {
    server = await startServer(sseReply(sse(answerEvents(answer, { stopReason }))))
    expect((await providerFor(server).generate(request())).finishReason).toBe(stopReason)
  })

  it('passes the partial input of a call cut off by max_tokens through as it is (the scheduler reports it)', async () => {
    const events = answerEvents({ role: 'assistant', content: '', toolCalls: [{ id: 'toolu_9', name: 'read_file', arguments: '{"path":"a.t' }] }, { stopReason: 'max_tokens' })
    server = await startServer(sseReply(sse(events)))
    const message = await providerFor(server).generate(request())
    expect(message).toMatchObject({ finishReason: 'max_tokens', toolCalls: [{ id: 'toolu_9', name: 'read_file', arguments: '{"path":"a.t' }] })
  })

  it('counts cached prompt tokens as input and takes the final output count from message_delta', async () => {
    const events = answerEvents({ role: 'assistant', content: 'hi' }, { usage: { input_tokens: 5, output_tokens: 9, cache_read_input_tokens: 100 } })
    server = await startServer(sseReply(sse(events)))
    expect((await providerFor(server).generate(request())).usage).toEqual({ inputTokens: 105, outputTokens: 9 })
  })

  it('gives a tool call without input deltas the arguments "{}"', async () => {
    const events = [
      { type: 'message_start', message: { content: [], usage: { input_tokens: 1, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'list_dir', input: {} } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 3 } },
      { type: 'message_stop' },
    ]
    server = await startServer(sseReply(sse(events)))
    expect((await providerFor(server).generate(request())).toolCalls).toEqual([{ id: 'toolu_1', name: 'list_dir', arguments: '{}' }])
  })

  it('skips pings, thinking blocks and event types it does not know', async () => {
    const events = [
      { type: 'message_start', message: { content: [], usage: { input_tokens: 1, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'abc' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'ping' },
      { type: 'some_future_event', detail: 1 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'answer' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } },
      { type: 'message_stop' },
    ]
    server = await startServer(sseReply(`: a comment\n\n${sse(events)}`))
    const { events: out } = await drain(providerFor(server).stream(request()))
    expect(out).toEqual([{ type: 'text-delta', text: 'answer' }, { type: 'message', message: expect.objectContaining({ content: 'answer' }) }])
  })

  it('accepts an answer whose stream ends after the stop reason without message_stop', async () => {
    server = await startServer(sseReply(sse(answerEvents({ role: 'assistant', content: 'ok' }).slice(0, -1))))
    expect((await providerFor(server).generate(request())).content).toBe('ok')
  })
})
