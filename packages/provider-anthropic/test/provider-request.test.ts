/**
 * What the server receives: rein's system messages as `system`, tool calls as `tool_use`
 * blocks, a batch of tool results (and any user text after them) as one user message of
 * `tool_result` blocks with `is_error`, tools as `input_schema`, and the config's options.
 */
import type { GenerateRequest } from '@rein/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { providerFor, request, startServer, type ScriptedServer } from './helpers.js'
import { answerReply } from './wire.js'

let server: ScriptedServer | undefined
afterEach(async () => { await server?.close(); server = undefined })

const ok = (r: { body: any }) => answerReply(r, { role: 'assistant', content: 'ok' })

async function bodyOf(req: GenerateRequest, overrides = {}): Promise<any> {
  server = await startServer(ok)
  await providerFor(server, overrides).generate(req)
  return server.requests[0]!.body
}

const roundTrip: GenerateRequest = {
  tools: request().tools,
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Read a.txt and b.txt' },
    { role: 'assistant', content: 'Reading.', toolCalls: [
      { id: 'toolu_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
      { id: 'toolu_b', name: 'read_file', arguments: { path: 'b.txt' } },
    ] },
    { role: 'tool', toolCallId: 'toolu_a', isError: false, content: [{ type: 'text', text: 'alpha' }] },
    { role: 'tool', toolCallId: 'toolu_b', isError: true, content: [{ type: 'text', text: 'Error: ENOENT b.txt' }] },
  ],
}

describe('the request body', () => {
  it('sends the system prompt as `system`, never as a message', async () => {
    const body = await bodyOf(request())
    expect(body.system).toBe('You are terse.')
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Read a.txt and b.txt' }] }])
  })

  it('joins several system messages with a blank line, and leaves `system` out when there is none', async () => {
    const two = await bodyOf({ tools: [], messages: [{ role: 'system', content: 'A.' }, { role: 'user', content: 'x' }, { role: 'system', content: 'B.' }] })
    expect(two.system).toBe('A.\n\nB.')
    await server!.close(); server = undefined
    expect('system' in await bodyOf({ tools: [], messages: [{ role: 'user', content: 'x' }] })).toBe(false)
  })

  it('sends tool calls as tool_use blocks and their results as one user message of tool_result blocks with is_error', async () => {
    const body = await bodyOf(roundTrip)
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Read a.txt and b.txt' }] },
      { role: 'assistant', content: [
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a.txt' } },
        { type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'b.txt' } },
      ] },
      { role: 'user', content: [
        { type: 'tool_result', tool_use_id: 'toolu_a', content: [{ type: 'text', text: 'alpha' }], is_error: false },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: [{ type: 'text', text: 'Error: ENOENT b.txt' }], is_error: true },
      ] },
    ])
  })

  it('puts user text that follows the results (additional context) in the same user message, after them', async () => {
    const body = await bodyOf({ ...roundTrip, messages: [...roundTrip.messages, { role: 'user', content: [{ type: 'text', text: 'Note: b.txt moved.' }] }] })
    expect(body.messages).toHaveLength(3)
    expect(body.messages[2].content.map((b: any) => b.type)).toEqual(['tool_result', 'tool_result', 'text'])
  })

  it('sends images in user messages and tool results as base64 image blocks', async () => {
    const image = { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' }
    const body = await bodyOf({ tools: request().tools, messages: [
      { role: 'user', content: [{ type: 'text', text: 'Look' }, image] },
      { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'read_file', arguments: '{"path":"p.png"}' }] },
      { role: 'tool', toolCallId: 't1', isError: false, content: [image] },
    ] })
    const source = { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' }
    expect(body.messages[0].content[1]).toEqual({ type: 'image', source })
    expect(body.messages[1].content).toEqual([{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'p.png' } }])
    expect(body.messages[2].content[0].content).toEqual([{ type: 'image', source }])
  })

  it('sends tools with input_schema, and the config\'s temperature and parallel-call switch', async () => {
    const body = await bodyOf(request(), { temperature: 0.2, parallelToolCalls: false, maxTokens: 77 })
    expect(body.tools).toEqual([{ name: 'read_file', description: 'Read a file', input_schema: request().tools[0]!.parameters }])
    expect(body).toMatchObject({ temperature: 0.2, max_tokens: 77, tool_choice: { type: 'auto', disable_parallel_tool_use: true } })
  })

  it('sends configured headers over the defaults, and the configured API version', async () => {
    await bodyOf(request(), { anthropicVersion: '2024-01-01', headers: { 'anthropic-beta': 'beta-1', 'x-gateway-token': 'gw-secret-123456' } })
    expect(server!.requests[0]!.headers).toMatchObject({ 'anthropic-version': '2024-01-01', 'anthropic-beta': 'beta-1', 'x-gateway-token': 'gw-secret-123456' })
  })

  it('sends arguments that are not a JSON object as input {} (the wire requires an object)', async () => {
    const body = await bodyOf({ tools: [], messages: [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'f', arguments: '{"a":' }, { id: 't2', name: 'f', arguments: '' }, { id: 't3', name: 'f', arguments: '[1]' }] },
      { role: 'tool', toolCallId: 't1', isError: true, content: [{ type: 'text', text: 'Error: invalid' }] },
      { role: 'tool', toolCallId: 't2', isError: false, content: [{ type: 'text', text: '' }] },
      { role: 'tool', toolCallId: 't3', isError: false, content: [{ type: 'text', text: 'ok' }] },
    ] })
    expect(body.messages[1].content.map((b: any) => b.input)).toEqual([{}, {}, {}])
    // An empty text, which the API refuses, is left out: the result has no content.
    expect(body.messages[2].content[1]).toEqual({ type: 'tool_result', tool_use_id: 't2', is_error: false })
  })
})
