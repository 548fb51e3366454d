import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BUDGET_EXCEEDED, LOOP_DETECTED } from '@rein/kernel'
import { memorySession } from '@rein/agent'
import { callMessage, textMessage, toolCall } from '@rein/testing'
import { harness, results, runAgent, textOf } from './helpers.js'

/** One model step per call: each call its own turn, as a model stuck in a loop makes them. */
const oneByOne = (calls: [string, string, Record<string, unknown>][]) => [
  ...calls.map(([id, name, args]) => callMessage([toolCall(id, name, args)])), textMessage('done'),
]

describe('the loop breaker', () => {
  it('refuses the 3rd identical call (same tool, same arguments in any key order), naming the tool and what was repeated', async () => {
    const { ctx, ran } = await harness({})
    const { session } = await runAgent(ctx, oneByOne([
      ['a', 'read', { path: 'x', deep: true }], ['b', 'read', { deep: true, path: 'x' }], ['c', 'read', { path: 'x', deep: true }],
    ]))
    expect(await results(session)).toEqual(['a:ok', 'b:ok', `c:${LOOP_DETECTED}`])
    expect(ran).toEqual(['a', 'b'])
    expect(await textOf(session, 'c')).toBe('Error: loop detected: read was called with the same arguments 3 times within the last 10 calls ' +
      '(arguments: {"deep":true,"path":"x"}); this call was not run. Do not repeat it: change the arguments, try another way, or say what is in the way')
  })

  it('counts refused calls in the window, and forgets calls older than the window', async () => {
    const { ctx } = await harness({ repeat: 2, window: 3 })
    const { session } = await runAgent(ctx, oneByOne([
      ['a1', 'read', { p: 1 }], ['a2', 'read', { p: 1 }], ['a3', 'read', { p: 1 }], ['b', 'read', { p: 2 }], ['c', 'read', { p: 3 }], ['a4', 'read', { p: 1 }],
    ]))
    expect(await results(session)).toEqual(['a1:ok', `a2:${LOOP_DETECTED}`, `a3:${LOOP_DETECTED}`, 'b:ok', 'c:ok', 'a4:ok'])
  })

  it('comes before the limits: a repeated call over the limit is LOOP_DETECTED', async () => {
    const { ctx } = await harness({ maxCalls: 1, repeat: 2, window: 2 })
    const { session } = await runAgent(ctx, oneByOne([['a', 'read', {}], ['b', 'read', {}], ['c', 'pay', {}]]))
    expect(await results(session)).toEqual(['a:ok', `b:${LOOP_DETECTED}`, `c:${BUDGET_EXCEEDED}`])
  })

  it('is off with repeat: 0', async () => {
    const { ctx } = await harness({ repeat: 0 })
    const { session } = await runAgent(ctx, oneByOne([['a', 'read', {}], ['b', 'read', {}], ['c', 'read', {}], ['d', 'read', {}]]))
    expect(await results(session)).toEqual(['a:ok', 'b:ok', 'c:ok', 'd:ok'])
  })

  it('refuses exactly the calls that are the repeat-th identical one within the last window calls (a model of the rule)', async () => {
    const { ctx } = await harness({ repeat: 3, window: 5 })
    await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 14 }), async (picks) => {
      const session = memorySession()
      const calls = picks.map((p, i) => [`c${i}`, 'read', { p }] as [string, string, Record<string, unknown>])
      await runAgent(ctx, oneByOne(calls), session)
      const expected = picks.map((p, i) => {
        const earlier = picks.slice(Math.max(0, i - 4), i).filter((q) => q === p).length
        return `c${i}:${earlier + 1 >= 3 ? LOOP_DETECTED : 'ok'}`
      })
      expect(await results(session)).toEqual(expected)
    }), { numRuns: 25 })
  })
})
