/**
 * The request mapping, without a server: arguments become an `input` object, consecutive
 * messages of one side merge, `tool_result` blocks lead their user message, empty text and
 * empty messages are left out.
 */
import type { Message } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { MAX_ARGUMENT_DEPTH } from '@rein/kernel'
import { toolInput, toWireMessages } from '../src/wire-request.js'

describe('toolInput', () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    [{ a: 1 }, { a: 1 }],
    ['', {}],
    ['{"a":', {}],
    ['[1,2]', {}],
    ['"text"', {}],
    [null, {}],
  ])('%j -> %j', (args, input) => {
    expect(toolInput(args)).toEqual(input)
  })

  it('sends {} for arguments nested deeper than the kernel accepts, so the request can still be written', () => {
    const nest = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`
    expect(toolInput(nest(MAX_ARGUMENT_DEPTH))).not.toEqual({})
    const deep = nest(20_000)
    expect(toolInput(deep)).toEqual({})
    expect(() => toWireMessages([{ role: 'assistant', content: '', toolCalls: [{ id: 't', name: 'f', arguments: deep }] }])).not.toThrow()
    expect(JSON.stringify(toWireMessages([{ role: 'assistant', content: '', toolCalls: [{ id: 't', name: 'f', arguments: deep }] }]))).toContain('"input":{}')
  })
})

describe('toWireMessages', () => {
  it('merges consecutive messages of one side, tool results first in a user message', () => {
    const messages: Message[] = [
      { role: 'user', content: 'a' },
      { role: 'user', content: [{ type: 'text', text: 'b' }] },
      { role: 'assistant', content: '', toolCalls: [{ id: 't', name: 'f', arguments: '{}' }] },
      { role: 'user', content: 'stray text before the result' },
      { role: 'tool', toolCallId: 't', isError: false, content: [{ type: 'text', text: 'r' }] },
      { role: 'assistant', content: '' },
      { role: 'assistant', content: 'done' },
    ]
    expect(toWireMessages(messages)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
      { role: 'user', content: [
        { type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'r' }], is_error: false },
        { type: 'text', text: 'stray text before the result' },
      ] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ])
  })
})
