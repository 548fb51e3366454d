import { afterEach, describe, expect, it } from 'vitest'
import { PROVIDER_ABORTED, PROVIDER_STREAM_INTERRUPTED } from '../src/index.js'
import { startFixtureServer, type FixtureServer } from './fixture-server.js'
import { drain, providerFor, request } from './helpers.js'

let server: FixtureServer
afterEach(async () => { await server.close() })

const twoReads = [
  { id: 'call_k2PnV0xGm3', name: 'read_file', arguments: '{"path": "a.txt"}' },
  { id: 'call_Q8rT1bYc7w', name: 'read_file', arguments: '{"path": "b.txt"}' },
]

describe('streamed answers', () => {
  it('yields text deltas, then the message with usage', async () => {
    server = await startFixtureServer({ sse: 'stream-text.sse' })
    const { events, error } = await drain(providerFor(server).stream(request()))
    expect(error).toBeUndefined()
    expect(events).toEqual([
      { type: 'text-delta', text: 'Héllo' }, { type: 'text-delta', text: ', 世界' }, { type: 'text-delta', text: '!' },
      { type: 'message', message: { role: 'assistant', content: 'Héllo, 世界!', usage: { inputTokens: 21, outputTokens: 5 }, finishReason: 'stop' } },
    ])
  })

  it('assembles two tool calls by index, with the text before them and the usage-only last chunk', async () => {
    server = await startFixtureServer({ sse: 'stream-tool-calls.sse' })
    const message = await providerFor(server).generate(request())
    expect(message).toEqual({ role: 'assistant', content: 'Reading both.', toolCalls: twoReads, usage: { inputTokens: 96, outputTokens: 44 }, finishReason: 'tool_calls' })
  })

  it('passes malformed tool JSON through untouched', async () => {
    server = await startFixtureServer({ sse: 'stream-malformed-args.sse' })
    const message = await providerFor(server).generate(request())
    expect(message.toolCalls).toEqual([{ id: 'call_0_7d1c2e3f', name: 'write_file', arguments: `{"path": 'notes.md', "content": "line\\n` }])
    expect(message.finishReason).toBe('length')
  })

  it('parses a JSON answer when the server ignored the stream flag', async () => {
    server = await startFixtureServer({ json: 'completion-text.json' })
    const { events } = await drain(providerFor(server).stream(request()))
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'message'])
    expect(events[1]).toMatchObject({ message: { content: 'Héllo, 世界!' } })
  })
})

describe('non-streamed answers (stream: false)', () => {
  it('returns the message, and stream() replays it as one delta and the message', async () => {
    server = await startFixtureServer({ json: 'completion-tool-calls.json' }, { json: 'completion-text.json' })
    const provider = providerFor(server, { stream: false })
    expect(await provider.generate(request())).toEqual({ role: 'assistant', content: 'Reading both.', toolCalls: twoReads, usage: { inputTokens: 96, outputTokens: 44 }, finishReason: 'tool_calls' })
    const { events } = await drain(provider.stream(request()))
    expect(events).toEqual([
      { type: 'text-delta', text: 'Héllo, 世界!' },
      { type: 'message', message: { role: 'assistant', content: 'Héllo, 世界!', usage: { inputTokens: 21, outputTokens: 5 }, finishReason: 'stop' } },
    ])
  })

  it('passes malformed tool JSON through untouched', async () => {
    server = await startFixtureServer({ json: 'completion-malformed-args.json' })
    const message = await providerFor(server, { stream: false }).generate(request())
    expect(message.toolCalls?.[0]?.arguments).toBe(`{"path": 'notes.md', "content": "line\\n`)
  })
})

describe('a stream that breaks off', () => {
  it('delivers what arrived, then fails as interrupted, without retrying', async () => {
    server = await startFixtureServer({ sse: 'stream-partial.sse', then: 'hang' }, { sse: 'stream-text.sse' })
    const events = providerFor(server).stream(request())[Symbol.asyncIterator]()
    expect(await events.next()).toEqual({ done: false, value: { type: 'text-delta', text: 'The answer is' } })
    server.requests[0]!.destroy()
    await expect(events.next()).rejects.toMatchObject({ code: PROVIDER_STREAM_INTERRUPTED, message: expect.stringContaining('broke off in the middle of the response') })
    expect(server.requests).toHaveLength(1)
  })

  it('fails as interrupted when the body ends cleanly before [DONE] or a finish_reason', async () => {
    server = await startFixtureServer({ sse: 'stream-partial.sse' })
    await expect(providerFor(server).generate(request())).rejects.toMatchObject({ code: PROVIDER_STREAM_INTERRUPTED, message: expect.stringContaining('ended before the answer was complete') })
  })
})

describe('abort', () => {
  it('aborts mid-stream: the stream rejects as aborted and the server sees the connection close', async () => {
    server = await startFixtureServer({ sse: 'stream-partial.sse', then: 'hang' })
    const controller = new AbortController()
    const events = providerFor(server).stream(request(controller.signal))[Symbol.asyncIterator]()
    expect(await events.next()).toEqual({ done: false, value: { type: 'text-delta', text: 'The answer is' } })
    const reason = new Error('user pressed Ctrl-C')
    controller.abort(reason)
    await expect(events.next()).rejects.toMatchObject({ code: PROVIDER_ABORTED, name: 'AbortError', cause: reason })
    await server.requests[0]!.closed
  })

  it('rejects at once, without a request, for an already-aborted signal', async () => {
    server = await startFixtureServer({ sse: 'stream-text.sse' })
    await expect(providerFor(server).generate(request(AbortSignal.abort()))).rejects.toMatchObject({ code: PROVIDER_ABORTED })
    expect(server.requests).toHaveLength(0)
  })

  it('closes the connection when the consumer stops reading early', async () => {
    server = await startFixtureServer({ sse: 'stream-partial.sse', then: 'hang' })
    for await (const event of providerFor(server).stream(request())) { expect(event.type).toBe('text-delta'); break }
    await server.requests[0]!.closed
  })
})
