/**
 * The assembler, event by event: text deltas come out as they arrive; tool input partials are
 * concatenated verbatim per block index, even when blocks interleave; the message is complete
 * only after `message_stop` or a stop reason. What it keeps is bounded: blocks by number (a huge
 * `index` costs nothing), text and tool input by their size together.
 */
import { createRedactor, MAX_ANSWER_PARTS } from '@rein/provider-kit'
import { describe, expect, it } from 'vitest'
import { PROVIDER_BAD_RESPONSE, ProviderStreamInterruptedError } from '../src/index.js'
import { MessageAssembler } from '../src/stream-assembler.js'

const site = { baseURL: 'https://api.anthropic.com', model: 'claude-test', redact: createRedactor([]), credentials: 'apiKey' as const }
const event = (data: object) => ({ data: JSON.stringify(data) })

describe('MessageAssembler', () => {
  it('returns each text delta and builds the message', () => {
    const a = new MessageAssembler(site)
    expect(a.push(event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'He' } }))).toBe('He')
    expect(a.push(event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'llo' } }))).toBe('llo')
    a.push(event({ type: 'message_stop' }))
    expect(a.isDone).toBe(true)
    expect(a.finish()).toEqual({ role: 'assistant', content: 'Hello' })
  })

  it('keeps tool input per block, in index order, even when deltas of two blocks interleave', () => {
    const a = new MessageAssembler(site)
    a.push(event({ type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 't2', name: 'g', input: {} } }))
    a.push(event({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't1', name: 'f', input: {} } }))
    for (const [index, partial_json] of [[2, '{"b"'], [1, '{"a":'], [2, ':2}'], [1, '1}']] as const) {
      a.push(event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }))
    }
    a.push(event({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 7 } }))
    expect(a.finish()).toEqual({
      role: 'assistant', content: '', finishReason: 'tool_use', usage: { outputTokens: 7 },
      toolCalls: [{ id: 't1', name: 'f', arguments: '{"a":1}' }, { id: 't2', name: 'g', arguments: '{"b":2}' }],
    })
  })

  it(`keeps a block of any index, and refuses block ${MAX_ANSWER_PARTS + 1}`, () => {
    const a = new MessageAssembler(site)
    a.push(event({ type: 'content_block_start', index: 1e9, content_block: { type: 'tool_use', id: 'far', name: 'f', input: { a: 1 } } }))
    for (let i = 1; i < MAX_ANSWER_PARTS; i++) a.push(event({ type: 'content_block_start', index: i, content_block: { type: 'thinking' } }))
    expect(() => a.push(event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'x' } }))).toThrow(expect.objectContaining({
      code: PROVIDER_BAD_RESPONSE, message: `https://api.anthropic.com streamed an answer of more than ${MAX_ANSWER_PARTS} tool calls or content blocks, far more than any model answer; reading stopped there`,
    }))
    a.push(event({ type: 'message_stop' }))
    expect(a.finish()).toEqual({ role: 'assistant', content: '', toolCalls: [{ id: 'far', name: 'f', arguments: '{"a":1}' }] })
  })

  it('counts text, tool ids, names, input and partials together against the size cap, before keeping them', () => {
    const a = new MessageAssembler(site, { maxSize: 19 })
    a.push(event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'abc' } }))
    a.push(event({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't1', name: 'f', input: {} } }))
    a.push(event({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a":' } }))
    a.push(event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'defgh' } }))
    expect(() => a.push(event({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '1}' } }))).toThrow(expect.objectContaining({
      code: PROVIDER_BAD_RESPONSE, message: expect.stringContaining('more than 19 characters'),
    }))
  })

  it('takes the type from the SSE event name when the data has none', () => {
    const a = new MessageAssembler(site)
    a.push({ event: 'message_stop', data: '{}' })
    expect(a.isDone).toBe(true)
  })

  it('ignores events after message_stop', () => {
    const a = new MessageAssembler(site)
    a.push(event({ type: 'message_stop' }))
    expect(a.push({ data: 'not json' })).toBe('')
  })

  it('refuses to finish an answer without message_stop or a stop reason', () => {
    const a = new MessageAssembler(site)
    a.push(event({ type: 'message_start', message: { usage: { input_tokens: 3 } } }))
    expect(() => a.finish()).toThrow(ProviderStreamInterruptedError)
  })
})
