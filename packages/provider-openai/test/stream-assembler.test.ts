import { MAX_ANSWER_PARTS } from '@rein/provider-kit'
import { describe, expect, it } from 'vitest'
import { PROVIDER_BAD_RESPONSE, PROVIDER_CONTEXT_LENGTH, PROVIDER_STREAM_INTERRUPTED } from '../src/index.js'
import { StreamAssembler } from '../src/stream-assembler.js'
import { siteFor } from './helpers.js'

const site = siteFor('http://127.0.0.1:1/v1', 'm', 'sk-secret-123')
/** An SSE event with this data (Chat Completions names no events). */
const event = (data: string) => ({ data })
const chunk = (delta: object, extra: object = {}) => JSON.stringify({ choices: [{ index: 0, delta, finish_reason: null }], ...extra })
const call = (index: number | undefined, fn: object, id?: string) =>
  chunk({ tool_calls: [{ ...(index === undefined ? {} : { index }), ...(id ? { id, type: 'function' } : {}), function: fn }] })

function run(events: string[]) {
  const a = new StreamAssembler(site)
  const texts = events.map((e) => a.push(event(e)))
  return { texts, message: a.finish() }
}

describe('StreamAssembler', () => {
  it('returns each text delta and concatenates them into the message', () => {
    const { texts, message } = run([chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hel' }), chunk({ content: 'lo' }), '[DONE]'])
    expect(texts).toEqual(['', 'Hel', 'lo', ''])
    expect(message).toEqual({ role: 'assistant', content: 'Hello' })
  })

  it('assembles interleaved tool-call deltas by index, in index order', () => {
    const { message } = run([
      call(1, { name: 'b', arguments: '' }, 'id_b'),
      call(0, { name: 'a', arguments: '{"x"' }, 'id_a'),
      call(1, { arguments: '{"y":2}' }),
      call(0, { arguments: ':1}' }),
      JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
    ])
    expect(message.toolCalls).toEqual([
      { id: 'id_a', name: 'a', arguments: '{"x":1}' },
      { id: 'id_b', name: 'b', arguments: '{"y":2}' },
    ])
  })

  it('keeps malformed arguments byte for byte', () => {
    const raw = `{"path": 'x', "n": 1,,`
    const { message } = run([call(0, { name: 'w', arguments: raw.slice(0, 5) }, 'c1'), call(0, { arguments: raw.slice(5) }), '[DONE]'])
    expect(message.toolCalls?.[0]?.arguments).toBe(raw)
  })

  it('joins a split name, ignores a repeated one, and invents ids the server left out', () => {
    const { message } = run([call(0, { name: 'read_' }), call(0, { name: 'file' }), call(0, { name: 'read_file', arguments: '{}' }), '[DONE]'])
    expect(message.toolCalls).toEqual([{ id: 'call_0', name: 'read_file', arguments: '{}' }])
  })

  it('matches deltas without an index by id, and continues the last call without either', () => {
    const { message } = run([call(undefined, { name: 'a', arguments: '{' }, 'x'), call(undefined, { arguments: '}' }), call(undefined, { name: 'b', arguments: '[]' }, 'y'), '[DONE]'])
    expect(message.toolCalls).toEqual([{ id: 'x', name: 'a', arguments: '{}' }, { id: 'y', name: 'b', arguments: '[]' }])
  })

  it(`finds the call of a delta without an index among ${MAX_ANSWER_PARTS} at once, and refuses one call more`, () => {
    const a = new StreamAssembler(site)
    for (let i = 0; i < MAX_ANSWER_PARTS; i++) a.push(event(call(i, { name: 'f', arguments: '{' }, `c${i}`)))
    a.push(event(call(undefined, { arguments: '}' })))
    a.push(event(call(undefined, { arguments: '"x":1}' }, 'c10')))
    expect(() => a.push(event(call(undefined, { name: 'g' }, 'new')))).toThrow(expect.objectContaining({
      code: PROVIDER_BAD_RESPONSE, message: `http://127.0.0.1:1/v1 streamed an answer of more than ${MAX_ANSWER_PARTS} tool calls or content blocks, far more than any model answer; reading stopped there`,
    }))
    a.push(event('[DONE]'))
    const calls = a.finish().toolCalls ?? []
    expect(calls).toHaveLength(MAX_ANSWER_PARTS)
    expect(calls[10]).toEqual({ id: 'c10', name: 'f', arguments: '{"x":1}' })
    expect(calls.at(-1)).toEqual({ id: `c${MAX_ANSWER_PARTS - 1}`, name: 'f', arguments: '{}' })
  })

  it('counts text, ids, names and arguments together against the size cap, before keeping them', () => {
    const a = new StreamAssembler(site, { maxSize: 10 })
    expect(a.push(event(chunk({ content: 'abcd' })))).toBe('abcd')
    a.push(event(call(0, { name: 'f', arguments: '{}' }, 'c1')))
    expect(() => a.push(event(chunk({ content: 'xy' })))).toThrow(expect.objectContaining({ code: PROVIDER_BAD_RESPONSE, message: expect.stringContaining('more than 10 characters') }))
  })

  it('reads usage from the last chunk that has it, even one with no choices', () => {
    const { message } = run([chunk({ content: 'a' }, { usage: null }), JSON.stringify({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 3 } }), '[DONE]'])
    expect(message.usage).toEqual({ inputTokens: 9, outputTokens: 3 })
  })

  it('ignores choices other than the first and events after [DONE]', () => {
    const other = JSON.stringify({ choices: [{ index: 1, delta: { content: 'no' } }] })
    const { message } = run([chunk({ content: 'yes' }), other, '[DONE]', chunk({ content: 'late' })])
    expect(message.content).toBe('yes')
  })

  it('accepts a stream that ends after a finish_reason without [DONE]', () => {
    const a = new StreamAssembler(site)
    a.push(event(JSON.stringify({ choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] })))
    expect(a.finish().content).toBe('ok')
  })

  it('refuses a stream that ended before finishing, as an interruption', () => {
    const a = new StreamAssembler(site)
    a.push(event(chunk({ content: 'The answer is' })))
    expect(() => a.finish()).toThrow(expect.objectContaining({ code: PROVIDER_STREAM_INTERRUPTED, message: expect.stringContaining('after 1 events') }))
  })

  it('throws a bad-response error for an event that is not JSON, quoting it without the key', () => {
    const a = new StreamAssembler(site)
    expect(() => a.push(event('{oops sk-secret-123'))).toThrow(expect.objectContaining({ code: PROVIDER_BAD_RESPONSE, message: expect.stringContaining('{oops [REDACTED]') }))
  })

  it('turns an error event into an error with the server text (context length recognised)', () => {
    const a = new StreamAssembler(site)
    expect(() => a.push(event(JSON.stringify({ error: { message: 'upstream overloaded' } })))).toThrow(expect.objectContaining({ code: PROVIDER_STREAM_INTERRUPTED, message: expect.stringContaining('upstream overloaded') }))
    expect(() => new StreamAssembler(site).push(event(JSON.stringify({ error: { message: 'prompt is too long: 210000 tokens' } })))).toThrow(expect.objectContaining({ code: PROVIDER_CONTEXT_LENGTH }))
  })
})
