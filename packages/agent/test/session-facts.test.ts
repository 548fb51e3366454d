/**
 * The facts the agent writes for a timeline: `at` on every entry (repairs too), `mode` on
 * `tool/call`, and `timing` and `meta` on `tool/result`. The clock is a fake `Date` moved by
 * the test between gate releases, so every time is an exact, known value.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Context } from 'cordis'
import { DEPENDENCY_FAILED, TOOL_DENIED, TOOL_NOT_STARTED } from '@rein/kernel'
import { callMessage, textMessage, toolCall } from '@rein/testing'
import { memorySession, type CallEndEvent, type CallTiming, type SessionEntry } from '../src/index.js'
import { gatedHarness, scriptedAgent, settle } from './helpers.js'

type CallEntry = Extract<SessionEntry, { type: 'tool/call' }>
type ResultEntry = Extract<SessionEntry, { type: 'tool/result' }>

const byId = <T extends SessionEntry>(entries: SessionEntry[], type: T['type']) => new Map(entries
  .filter((e): e is T => e.type === type)
  .map((e) => [e.type === 'tool/call' ? e.call.id : (e as ResultEntry).message.toolCallId, e]))

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(1000)
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the facts the agent writes', () => {
  it('times each call: parallel bodies overlap, an early finisher waits for its post turn, a barrier starts after both', async () => {
    const { ctx, gate } = await gatedHarness()
    const ended: CallEndEvent[] = []
    ctx.on('agent/call-end', (event) => { ended.push(event) })
    const { agent, session } = scriptedAgent(ctx, [
      callMessage([toolCall('a', 'read'), toolCall('b', 'read'), toolCall('w', 'write')]), textMessage('done'),
    ])
    const run = agent.run('go')
    await gate.whenRunning(2)
    vi.setSystemTime(2000)
    gate.release('b')
    await settle()
    vi.setSystemTime(3000)
    gate.release('a')
    await gate.whenStarted('w')
    vi.setSystemTime(4000)
    gate.release('w')
    expect((await run).kind).toBe('completed')

    const entries = await session.load()
    const calls = byId<CallEntry>(entries, 'tool/call')
    const results = byId<ResultEntry>(entries, 'tool/result')
    expect([...calls.values()].map((e) => [e.call.id, e.mode, e.at])).toEqual([['a', 'parallel', 1000], ['b', 'parallel', 1000], ['w', 'exclusive', 3000]])
    expect(results.get('a')!.timing).toEqual({ startedAt: 1000, bodyStartedAt: 1000, bodyEndedAt: 3000, finalAt: 3000 })
    expect(results.get('b')!.timing).toEqual({ startedAt: 1000, bodyStartedAt: 1000, bodyEndedAt: 2000, finalAt: 3000 })
    expect(results.get('w')!.timing).toEqual({ startedAt: 3000, bodyStartedAt: 3000, bodyEndedAt: 4000, finalAt: 4000 })
    expect(results.get('b')!.at).toBe(3000)
    expect(ended.map((e) => [e.id, e.durationMs, e.timing])).toEqual(['a', 'b', 'w'].map((id) => {
      const timing = results.get(id)!.timing!
      return [id, timing.finalAt - timing.startedAt, timing]
    }))
  })

  it('stamps every entry with the time it was appended, and keeps plugin facts as meta', async () => {
    const { ctx, gate } = await gatedHarness()
    ctx.plugin({
      name: 'facts', inject: ['tools'],
      apply: (c: Context) => c.on('tools/execute', async (exec, next) => {
        exec.meta.attempts = 2
        return next()
      }),
    })
    await ctx.start()
    const { agent, session } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read')]), textMessage('done')], { system: 'terse' })
    const run = agent.run('go')
    await gate.whenStarted('a')
    vi.setSystemTime(5000)
    gate.release('a')
    await run
    const entries = await session.load()
    expect(entries.map((e) => [e.type, e.at])).toEqual([
      ['message', 1000], ['message', 1000], ['message', 1000], ['tool/call', 1000],
      ['tool/result', 5000], ['turn/end', 5000], ['message', 5000],
    ])
    const result = entries.find((e): e is ResultEntry => e.type === 'tool/result')!
    expect(result.meta).toEqual({ attempts: 2 })
    inOrder(result.timing!)
  })

  it('gives a call whose body never ran (denied, dependency failed) no body times', async () => {
    const { ctx, gate } = await gatedHarness()
    ctx.tools.guard((exec) => (exec.name === 'write' ? 'writes are off' : undefined))
    const { agent, session } = scriptedAgent(ctx, [
      callMessage([toolCall('w', 'write'), toolCall('r', 'read', { $depends_on: ['w'] }), toolCall('ok', 'read')]), textMessage('done'),
    ])
    gate.release('ok')
    await agent.run('go')
    const results = byId<ResultEntry>(await session.load(), 'tool/result')
    expect([...results.values()].map((e) => [e.message.toolCallId, e.code])).toEqual([['w', TOOL_DENIED], ['r', DEPENDENCY_FAILED], ['ok', undefined]])
    for (const id of ['w', 'r']) {
      const timing = results.get(id)!.timing!
      expect(Object.keys(timing).sort()).toEqual(['finalAt', 'startedAt'])
      inOrder(timing)
    }
    expect(results.get('ok')!.timing).toMatchObject({ bodyStartedAt: 1000, bodyEndedAt: 1000 })
  })

  it('stamps the entries a resume repair appends, without a timing it does not know', async () => {
    const { ctx } = await gatedHarness()
    const session = memorySession()
    await session.append({ type: 'message', message: { role: 'user', content: 'go' } })
    await session.append({ type: 'message', turn: 1, message: callMessage([toolCall('c1', 'read')]) })
    vi.setSystemTime(7000)
    await scriptedAgent(ctx, [textMessage('done')], { session }).agent.run()
    const added = (await session.load()).slice(2)
    expect(added.map((e) => [e.type, e.at])).toEqual([['tool/result', 7000], ['turn/end', 7000], ['message', 7000]])
    expect(added[0]).toMatchObject({ code: TOOL_NOT_STARTED })
    expect(added[0]).not.toHaveProperty('timing')
  })
})

function inOrder(timing: CallTiming): void {
  const marks = [timing.startedAt, timing.bodyStartedAt, timing.bodyEndedAt, timing.finalAt].filter((t) => t !== undefined)
  expect(marks).toEqual([...marks].sort((x, y) => x - y))
}
