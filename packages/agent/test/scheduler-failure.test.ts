import { describe, expect, it } from 'vitest'
import { TOOL_NOT_STARTED, TOOL_OUTCOME_UNKNOWN } from '@rein/kernel'
import { callMessage, toolCall, validateTranscript } from '@rein/testing'
import { memorySession, type SessionStore } from '../src/index.js'
import { gatedHarness, outcomes, scriptedAgent } from './helpers.js'

/** A memory session whose disk "fills up" for one append: the tool/call of call `id`. */
function failingOnCallOf(id: string): SessionStore & { healed: boolean } {
  const inner = memorySession()
  const store = {
    id: inner.id,
    healed: false,
    load: () => inner.load(),
    append: async (entry: Parameters<SessionStore['append']>[0]) => {
      if (!store.healed && entry.type === 'tool/call' && entry.call.id === id) throw new Error('ENOSPC: no space left on device')
      return inner.append(entry)
    },
  }
  return store
}

describe('a failure of the scheduler itself', () => {
  it('stops starting, lets started calls settle, ends with error, and fabricates no result', async () => {
    const { ctx, gate } = await gatedHarness()
    for (const id of ['a', 'c', 'd']) gate.release(id)
    const session = failingOnCallOf('b')
    const { agent } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read'), toolCall('b', 'read'), toolCall('c', 'read'), toolCall('d', 'write')])], { session })
    const outcome = await agent.run('go')
    expect(outcome.kind).toBe('error')
    expect(outcome.error?.message).toBe('ENOSPC: no space left on device')
    expect(gate.started).toEqual(['a', 'c'])
    expect(outcomes(outcome.messages)).toEqual(['a:ok'])
    const results = (await session.load()).filter((e) => e.type === 'tool/result')
    expect(results).toHaveLength(1)
  })

  it('is repaired by the next run: TOOL_NOT_STARTED for the unlogged calls, TOOL_OUTCOME_UNKNOWN for the uncommitted', async () => {
    const { ctx, gate } = await gatedHarness()
    for (const id of ['a', 'c']) gate.release(id)
    const session = failingOnCallOf('b')
    const { agent, provider } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read'), toolCall('b', 'read'), toolCall('c', 'read'), toolCall('d', 'write')])], { session })
    expect((await agent.run('go')).kind).toBe('error')
    session.healed = true
    const next = await agent.run('again')
    expect(next.kind).toBe('completed')
    expect(gate.started).toEqual(['a', 'c'])
    expect(validateTranscript(provider.requests[1].messages)).toEqual([])
    const codes = (await session.load()).flatMap((e) => e.type === 'tool/result' ? [`${e.message.toolCallId}:${e.code ?? 'ok'}`] : [])
    expect(codes).toEqual(['a:ok', `b:${TOOL_NOT_STARTED}`, `c:${TOOL_OUTCOME_UNKNOWN}`, `d:${TOOL_NOT_STARTED}`])
  })
})
