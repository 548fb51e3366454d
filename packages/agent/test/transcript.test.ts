import fc from 'fast-check'
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

  it('follows each assistant message with the last result logged for each of its calls, whatever the turns, order and repeats', () => {
    // The rule, written plainly: a result belongs to (turn, index); a later one for the same call replaces an earlier one.
    const expected = (entries: SessionEntry[]) => {
      const out: string[] = []
      for (const entry of entries) {
        if (entry.type !== 'message') continue
        out.push(entry.message.role)
        if (entry.turn === undefined || entry.message.role !== 'assistant') continue
        ;(entry.message.toolCalls ?? []).forEach((_call, index) => {
          const found = entries.filter((e) => e.type === 'tool/result' && e.turn === entry.turn && e.index === index).at(-1)
          if (found?.type === 'tool/result') out.push(found.message.toolCallId)
        })
      }
      return out
    }
    const entry = fc.oneof(
      fc.constant<'user'>('user'),
      fc.record({ turn: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }), calls: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ turn: fc.integer({ min: 1, max: 3 }), index: fc.integer({ min: 0, max: 4 }), tag: fc.string({ maxLength: 3 }) }),
    )
    fc.assert(fc.property(fc.array(entry, { maxLength: 25 }), (specs) => {
      const entries: SessionEntry[] = specs.map((spec, i): SessionEntry => {
        const seq = i + 1
        if (spec === 'user') return { seq, type: 'message', message: { role: 'user', content: 'u' } }
        if ('calls' in spec) {
          const calls = Array.from({ length: spec.calls }, (_, k) => toolCall(`c${seq}_${k}`, 't'))
          return { seq, type: 'message', turn: spec.turn, message: callMessage(calls) }
        }
        return { ...result(seq, spec.index, `r${seq}_${spec.turn}_${spec.index}_${spec.tag}`), turn: spec.turn } as SessionEntry
      })
      expect(buildMessages(entries).map((m) => m.role === 'tool' ? m.toolCallId : m.role)).toEqual(expected(entries))
    }))
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
