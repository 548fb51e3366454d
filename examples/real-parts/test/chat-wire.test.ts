import { describe, expect, it } from 'vitest'
import { completion, streamEvents, type ScriptedAnswer, type WireRequest } from '../src/index.js'

const request: WireRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true }
const answer: ScriptedAnswer = {
  content: 'Two calls.',
  toolCalls: [
    { id: 'a', name: 'read_file', arguments: { path: 'alpha.txt' } },
    { id: 'b', name: 'grep', arguments: '{"pattern":"x"}' },
  ],
}

type Chunk = { choices: { delta: { content?: string, tool_calls?: { index: number, id?: string, function?: { name?: string, arguments?: string } }[] }, finish_reason: string | null }[], usage?: unknown }

const parse = (events: string[]) => events.slice(0, -1).map((data) => JSON.parse(data) as Chunk)
const toolDeltas = (chunks: Chunk[]) => chunks.flatMap((c) => c.choices.flatMap((choice) => choice.delta.tool_calls ?? []))

describe('streamEvents', () => {
  it('spells the text in word deltas and ends with a finish_reason, then [DONE]', () => {
    const events = streamEvents(answer, request, 'id1')
    expect(events.at(-1)).toBe('[DONE]')
    const chunks = parse(events)
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Two calls.')
    expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBe(2)
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls')
    expect(chunks.some((c) => c.usage)).toBe(false)
  })

  it('opens each call with its index, id and name, and cuts its arguments into pieces', () => {
    const deltas = toolDeltas(parse(streamEvents(answer, request, 'id1', { chunkSize: 4 })))
    expect(deltas.filter((d) => d.id).map((d) => [d.index, d.id, d.function?.name])).toEqual([[0, 'a', 'read_file'], [1, 'b', 'grep']])
    const pieces = deltas.filter((d) => !d.id).map((d) => d.function!.arguments!)
    expect(pieces.every((piece) => piece.length <= 4)).toBe(true)
    const joined = (index: number) => deltas.filter((d) => d.index === index).map((d) => d.function?.arguments ?? '').join('')
    expect([joined(0), joined(1)]).toEqual(['{"path":"alpha.txt"}', '{"pattern":"x"}'])
    // One call after the other by default...
    expect(deltas.map((d) => d.index)).toEqual([...deltas.map((d) => d.index)].sort())
  })

  it('sends the calls round-robin with interleave, still reassembling by index', () => {
    const deltas = toolDeltas(parse(streamEvents(answer, request, 'id1', { chunkSize: 4, interleave: true })))
    expect(deltas.slice(0, 4).map((d) => d.index)).toEqual([0, 1, 0, 1])
    const joined = (index: number) => deltas.filter((d) => d.index === index).map((d) => d.function?.arguments ?? '').join('')
    expect([joined(0), joined(1)]).toEqual(['{"path":"alpha.txt"}', '{"pattern":"x"}'])
  })

  it('adds a usage chunk when the request asks for it', () => {
    const chunks = parse(streamEvents({ content: 'ok' }, { ...request, stream_options: { include_usage: true } }, 'id1'))
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number), completion_tokens: 1 } })
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop')
  })
})

describe('completion', () => {
  it('is one chat.completion with the calls as wire tool_calls', () => {
    expect(completion(answer, request, 'id2')).toMatchObject({
      id: 'id2',
      object: 'chat.completion',
      model: 'm',
      choices: [{
        index: 0,
        finish_reason: 'tool_calls',
        message: {
          role: 'assistant',
          content: 'Two calls.',
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'read_file', arguments: '{"path":"alpha.txt"}' } },
            { id: 'b', type: 'function', function: { name: 'grep', arguments: '{"pattern":"x"}' } },
          ],
        },
      }],
    })
    expect(completion({}, request, 'id3')).toMatchObject({ choices: [{ message: { content: null }, finish_reason: 'stop' }] })
  })
})
