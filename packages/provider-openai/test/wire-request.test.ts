import type { Message, ToolSpec } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { resolveConfig } from '../src/config.js'
import { buildRequest, toWireMessage, toWireTools } from '../src/wire-request.js'

const image = { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' }

describe('toWireMessage', () => {
  it('maps system and plain user messages as strings', () => {
    expect(toWireMessage({ role: 'system', content: 'be brief' })).toEqual({ role: 'system', content: 'be brief' })
    expect(toWireMessage({ role: 'user', content: 'hi' })).toEqual({ role: 'user', content: 'hi' })
  })

  it('joins all-text user blocks, and sends content parts when there is an image', () => {
    expect(toWireMessage({ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] })).toEqual({ role: 'user', content: 'a\nb' })
    expect(toWireMessage({ role: 'user', content: [{ type: 'text', text: 'what is this?' }, image] })).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }],
    })
  })

  it('maps tool calls, keeping string arguments untouched and serializing objects', () => {
    const msg: Message = {
      role: 'assistant', content: '',
      toolCalls: [{ id: 'c1', name: 'a', arguments: `{"bad": 'json'` }, { id: 'c2', name: 'b', arguments: { x: [1] } }, { id: 'c3', name: 'c', arguments: undefined }],
    }
    expect(toWireMessage(msg)).toEqual({
      role: 'assistant', content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'a', arguments: `{"bad": 'json'` } },
        { id: 'c2', type: 'function', function: { name: 'b', arguments: '{"x":[1]}' } },
        { id: 'c3', type: 'function', function: { name: 'c', arguments: '{}' } },
      ],
    })
  })

  it('keeps assistant text next to tool calls, and sends plain assistant text as a string', () => {
    expect(toWireMessage({ role: 'assistant', content: 'Looking.', toolCalls: [{ id: 'c', name: 'f', arguments: '{}' }] })).toMatchObject({ content: 'Looking.' })
    expect(toWireMessage({ role: 'assistant', content: 'done', toolCalls: [] })).toEqual({ role: 'assistant', content: 'done' })
  })

  it('maps a tool result to tool_call_id and its text joined, naming images it cannot carry', () => {
    expect(toWireMessage({ role: 'tool', toolCallId: 'c1', isError: true, content: [{ type: 'text', text: 'Error: no' }, { type: 'text', text: 'hint' }, image] })).toEqual({
      role: 'tool', tool_call_id: 'c1', content: 'Error: no\nhint\n[image image/png, 12 base64 characters, not shown]',
    })
  })
})

describe('buildRequest', () => {
  const tools: ToolSpec[] = [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }]
  const base = resolveConfig({ model: 'deepseek-chat', apiKey: 'k' })

  it('maps tools to function tools', () => {
    expect(toWireTools(tools)).toEqual([{ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: tools[0]!.parameters } }])
  })

  it('asks for usage when streaming and leaves unset options out', () => {
    expect(buildRequest(base, { messages: [{ role: 'user', content: 'x' }], tools: [] }, true)).toEqual({
      model: 'deepseek-chat', messages: [{ role: 'user', content: 'x' }], stream: true, stream_options: { include_usage: true },
    })
    expect(buildRequest(base, { messages: [], tools: [] }, false)).toEqual({ model: 'deepseek-chat', messages: [], stream: false })
  })

  it('sends temperature, max_tokens and parallel_tool_calls (the last only with tools)', () => {
    const config = resolveConfig({ model: 'm', apiKey: 'k', temperature: 0.2, maxTokens: 100, parallelToolCalls: false })
    expect(buildRequest(config, { messages: [], tools }, false)).toMatchObject({ temperature: 0.2, max_tokens: 100, parallel_tool_calls: false })
    expect(buildRequest(config, { messages: [], tools: [] }, false)).not.toHaveProperty('parallel_tool_calls')
  })
})
