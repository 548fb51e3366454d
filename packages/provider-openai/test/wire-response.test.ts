import { describe, expect, it } from 'vitest'
import { PROVIDER_BAD_RESPONSE } from '../src/index.js'
import { parseCompletion, readUsage } from '../src/wire-response.js'
import { fixture } from './fixture-server.js'
import { siteFor } from './helpers.js'

const site = siteFor('http://127.0.0.1:1/v1', 'm', 'sk-secret-123')
const bodyOf = (name: string) => JSON.stringify((JSON.parse(fixture(name)) as { body: unknown }).body)

describe('parseCompletion', () => {
  it('reads text, usage and finish_reason', () => {
    expect(parseCompletion(bodyOf('completion-text.json'), site)).toEqual({
      role: 'assistant', content: 'Héllo, 世界!', usage: { inputTokens: 21, outputTokens: 5 }, finishReason: 'stop',
    })
    expect(parseCompletion(bodyOf('completion-tool-calls.json'), site).finishReason).toBe('tool_calls')
  })

  it('reads tool calls with their arguments as raw strings', () => {
    const message = parseCompletion(bodyOf('completion-tool-calls.json'), site)
    expect(message.content).toBe('Reading both.')
    expect(message.toolCalls).toEqual([
      { id: 'call_k2PnV0xGm3', name: 'read_file', arguments: '{"path": "a.txt"}' },
      { id: 'call_Q8rT1bYc7w', name: 'read_file', arguments: '{"path": "b.txt"}' },
    ])
  })

  it('passes malformed arguments through untouched', () => {
    const message = parseCompletion(bodyOf('completion-malformed-args.json'), site)
    expect(message.toolCalls?.[0]?.arguments).toBe(`{"path": 'notes.md', "content": "line\\n`)
  })

  it('treats null content as empty, serializes object arguments and invents missing ids', () => {
    const body = JSON.stringify({ choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ function: { name: 'f', arguments: { a: 1 } } }] } }] })
    expect(parseCompletion(body, site)).toEqual({ role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'f', arguments: '{"a":1}' }] })
  })

  it.each([
    ['<html>Not here</html>', 'not JSON'],
    ['{"object":"list","data":[]}', 'choices[0].message'],
    ['{"choices":[{"message":{"tool_calls":[{"function":{}}]}}]}', 'without a function name'],
  ])('refuses %s as a bad response', (body, says) => {
    expect(() => parseCompletion(body, site)).toThrow(expect.objectContaining({ code: PROVIDER_BAD_RESPONSE, message: expect.stringContaining(says) }))
  })
})

describe('readUsage', () => {
  it('maps prompt/completion tokens and ignores a usage without figures', () => {
    expect(readUsage({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 })).toEqual({ inputTokens: 1, outputTokens: 2 })
    expect(readUsage({})).toBeUndefined()
    expect(readUsage(null)).toBeUndefined()
  })
})
