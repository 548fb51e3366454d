import { describe, expect, it } from 'vitest'
import type { Message } from '@rein/kernel'
import { callMessage, toolCall, validateTranscript } from '../src/index.js'

const result = (id: string): Message => ({ role: 'tool', toolCallId: id, content: [{ type: 'text', text: 'ok' }], isError: false })
const batch = callMessage([toolCall('a', 't'), toolCall('b', 't')])

describe('validateTranscript', () => {
  it('accepts every call answered in order', () => {
    expect(validateTranscript([{ role: 'user', content: 'go' }, batch, result('a'), result('b'),
      { role: 'user', content: 'context' }, { role: 'assistant', content: 'done' }])).toEqual([])
  })

  it('rejects results out of order', () => {
    expect(validateTranscript([batch, result('b'), result('a')])).toEqual([
      'message #1: tool result "b" where the result of "a" was due',
      'message #2: tool result "a" where the result of "b" was due',
    ])
  })

  it('rejects a missing result, before the next message and at the end', () => {
    expect(validateTranscript([batch, result('a'), { role: 'user', content: 'x' }]))
      .toEqual(['tool call "b" of message #0 has no result before message #2'])
    expect(validateTranscript([batch, result('a')])).toEqual(['tool call "b" of message #0 has no result at the end of the transcript'])
  })

  it('rejects a result that answers nothing, a duplicate id and empty content', () => {
    expect(validateTranscript([result('x')])).toEqual(['message #0: tool result "x" answers no pending tool call'])
    expect(validateTranscript([callMessage([toolCall('a', 't'), toolCall('a', 't')]), result('a'), result('a')]))
      .toEqual(['message #0: tool call id "a" appears twice'])
    expect(validateTranscript([callMessage([toolCall('a', 't')]), { role: 'tool', toolCallId: 'a', content: [], isError: false }]))
      .toEqual(['message #1: tool result "a" has no well-formed content'])
  })
})
