/** Reading a session into timeline calls: outcomes, times, dependencies, damaged files. */
import { describe, expect, it } from 'vitest'
import { readTrace } from '../src/trace/read.js'
import { sessionText } from './sessions.js'

describe('readTrace', () => {
  it('gives every call of every batch its outcome, times and mode, in model order', () => {
    const trace = readTrace(sessionText([
      [{ id: 'a', start: 0, end: 40, mode: 'parallel' }, { id: 'b', start: 1, end: 20, code: 'TOOL_DENIED', mode: 'exclusive' }],
      [{ id: 'c', start: 5, end: 6 }],
    ], { origin: 1000 }))
    expect(trace.timed).toBe(true)
    expect(trace.turns.map((t) => [t.turn, t.text, t.outcome])).toEqual([[1, 'batch 1', 'committed'], [2, 'batch 2', 'committed']])
    const [a, b] = trace.turns[0].calls
    expect(a).toMatchObject({ id: 'a', outcome: 'ok', startAt: 1000, endAt: 1040, mode: 'parallel', preview: 'fine', started: true })
    expect(b).toMatchObject({ id: 'b', outcome: 'TOOL_DENIED', startAt: 1001, endAt: 1020, mode: 'exclusive', preview: 'Error: TOOL_DENIED' })
  })

  it('takes the agent\'s timing: start, body run and final result, not the commit time', () => {
    const trace = readTrace(sessionText([[
      { id: 'a', start: 0, body: [10, 250], final: 410, end: 900 },
      { id: 'd', start: 5, final: 6, end: 900, code: 'TOOL_DENIED' },
    ]], { origin: 1000 }))
    const [a, d] = trace.turns[0].calls
    expect(a).toMatchObject({ startAt: 1000, bodyStartAt: 1010, bodyEndAt: 1250, endAt: 1410 })
    expect(d).toMatchObject({ startAt: 1005, endAt: 1006 })
    expect(d.bodyStartAt).toBeUndefined()
  })

  it('falls back, for older sessions, to a result\'s measured duration before its commit time', () => {
    const text = sessionText([[{ id: 'a', start: 0, end: 500 }]], { origin: 0 })
      .replace('"type":"tool/result"', '"type":"tool/result","durationMs":120')
    expect(readTrace(text).turns[0].calls[0]).toMatchObject({ startAt: 0, endAt: 120 })
  })

  it('finds dependencies in the arguments as asked, even after substitution erased them', () => {
    const trace = readTrace(sessionText([[
      { id: 'a', start: 0, end: 10 },
      { id: 'b', args: { text: '${a.result.value}' }, ran: { text: 'hello' }, start: 10, end: 20 },
      { id: 'c', args: { $depends_on: ['a', 'b'], x: 1 }, ran: { x: 1 }, start: 20, end: 30 },
      { id: 'd', args: { text: '${elsewhere.result}' }, start: 30, end: 31 },
    ]]))
    expect(trace.turns[0].calls.map((c) => c.deps)).toEqual([[], ['a'], ['a', 'b'], []])
    expect(trace.turns[0].calls[1]).toMatchObject({ requested: { text: '${a.result.value}' }, arguments: { text: 'hello' } })
  })

  it('keeps calls that never started or never got a result', () => {
    const trace = readTrace(sessionText([[{ id: 'a', start: 0 }, { id: 'b' }]]))
    expect(trace.turns[0].calls.map((c) => [c.id, c.started, c.outcome])).toEqual([['a', true, 'no result'], ['b', false, 'no result']])
  })

  it('is untimed when a started call has no time', () => {
    expect(readTrace(sessionText([[{ id: 'a', start: 0, end: 1 }]], { timed: false })).timed).toBe(false)
  })

  it('ignores a torn last line and names the line of a damaged one', () => {
    const text = sessionText([[{ id: 'a', start: 0, end: 1 }]])
    expect(readTrace(`${text}{"seq":99,"type":"tool/ca`).turns[0].calls).toHaveLength(1)
    const lines = text.split('\n')
    lines.splice(2, 0, 'not json')
    expect(() => readTrace(lines.join('\n'), 'run.jsonl')).toThrow('run.jsonl:3: not a JSON session entry')
  })
})
