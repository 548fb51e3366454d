import { describe, expect, it } from 'vitest'
import { callMessage, toolCall } from '@rein/testing'
import { buildMessages, unanswered, type SessionEntry } from '../src/index.js'

const result = (seq: number, index: number, id: string): SessionEntry => ({
  seq, type: 'tool/result', turn: 1, index, message: { role: 'tool', toolCallId: id, content: [{ type: 'text', text: id }], isError: false },
})

describe('buildMessages', () => {
  it('puts each batch\'s results right after its assistant message, in call order, wherever they are logged', () => {
    const entries: SessionEntry[] = [
      { seq: 1, type: 'message', message: { role: 'user', content: 'go' } },
      { seq: 2, type: 'message', turn: 1, message: callMessage([toolCall('a', 't'), toolCall('b', 't')]) },
      result(3, 0, 'a'),
      { seq: 4, type: 'message', message: { role: 'user', content: 'later' } },
      result(5, 1, 'b'),
    ]
    expect(buildMessages(entries).map((m) => m.role === 'tool' ? m.toolCallId : m.role)).toEqual(['user', 'assistant', 'a', 'b', 'user'])
  })
})

describe('unanswered', () => {
  it('lists calls without a result, with the logged tool/call of those that started', () => {
    const entries: SessionEntry[] = [
      { seq: 1, type: 'message', turn: 1, message: callMessage([toolCall('a', 't'), toolCall('b', 't'), toolCall('c', 't')]) },
      { seq: 2, type: 'tool/call', turn: 1, index: 0, call: { id: 'a', name: 't', arguments: { x: 1 } } },
      { seq: 3, type: 'tool/call', turn: 1, index: 1, call: { id: 'b', name: 't', arguments: {} } },
      result(4, 0, 'a'),
    ]
    expect(unanswered(entries).map(({ call, started }) => [call.id, started?.id])).toEqual([['b', 'b'], ['c', undefined]])
  })
})
