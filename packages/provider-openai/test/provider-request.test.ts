import type { GenerateRequest } from '@rein/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { startFixtureServer, type FixtureServer } from './fixture-server.js'
import { KEY, providerFor } from './helpers.js'

let server: FixtureServer
afterEach(async () => { await server.close() })

/** A transcript with every message kind: a tool round trip with one malformed call, and an image. */
const transcript: GenerateRequest = {
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Read a.txt' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' }, { id: 'call_2', name: 'read_file', arguments: '{"path": a.txt' }] },
    { role: 'tool', toolCallId: 'call_1', isError: false, content: [{ type: 'text', text: 'alpha' }, { type: 'text', text: 'beta' }] },
    { role: 'tool', toolCallId: 'call_2', isError: true, content: [{ type: 'text', text: 'Error: invalid JSON arguments' }] },
    { role: 'user', content: [{ type: 'text', text: 'And this?' }, { type: 'image', data: 'R0lGODlh', mimeType: 'image/gif' }] },
  ],
  tools: [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
}

const wireMessages = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Read a.txt' },
  {
    role: 'assistant', content: null, tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
      { id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path": a.txt' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'alpha\nbeta' },
  { role: 'tool', tool_call_id: 'call_2', content: 'Error: invalid JSON arguments' },
  { role: 'user', content: [{ type: 'text', text: 'And this?' }, { type: 'image_url', image_url: { url: 'data:image/gif;base64,R0lGODlh' } }] },
]

describe('the request the server receives', () => {
  it('streamed: POST /v1/chat/completions with the model, mapped messages, tools, stream flags and auth', async () => {
    server = await startFixtureServer({ sse: 'stream-text.sse' })
    await providerFor(server, { parallelToolCalls: true, temperature: 0, maxTokens: 512 }).generate(transcript)
    const [seen] = server.requests
    expect(seen).toMatchObject({ method: 'POST', path: '/v1/chat/completions' })
    expect(seen!.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'text/event-stream' })
    expect(seen!.body).toEqual({
      model: 'deepseek-chat',
      messages: wireMessages,
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: transcript.tools[0]!.parameters } }],
      parallel_tool_calls: true,
      temperature: 0,
      max_tokens: 512,
    })
  })

  it('non-streamed: stream false, no stream_options, JSON accepted', async () => {
    server = await startFixtureServer({ json: 'completion-text.json' })
    await providerFor(server, { stream: false }).generate({ messages: [{ role: 'user', content: 'hi' }], tools: [] })
    const [seen] = server.requests
    expect(seen!.headers.accept).toBe('application/json')
    expect(seen!.body).toEqual({ model: 'deepseek-chat', messages: [{ role: 'user', content: 'hi' }], stream: false })
  })

  it('sends the configured extra headers, which may replace the defaults', async () => {
    server = await startFixtureServer({ sse: 'stream-text.sse' })
    await providerFor(server, { headers: { 'X-Title': 'rein', Authorization: 'Token other' } }).generate(transcript)
    expect(server.requests[0]!.headers).toMatchObject({ 'x-title': 'rein', authorization: 'Token other' })
  })

  it('does not change the request it was given', async () => {
    server = await startFixtureServer({ sse: 'stream-text.sse' })
    const before = structuredClone(transcript)
    await providerFor(server).generate(transcript)
    expect(transcript).toEqual(before)
  })
})
