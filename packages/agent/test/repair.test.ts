import { describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { TOOL_NOT_STARTED, TOOL_OUTCOME_UNKNOWN, type ToolExec, type ToolExecutionResult } from '@rein/kernel'
import { callMessage, toolCall, validateTranscript } from '@rein/testing'
import { memorySession, type SessionStore } from '../src/index.js'
import { gatedHarness, outcomes, scriptedAgent } from './helpers.js'

/** A session that died mid-batch: c1 finished, c2 started, c3 never started. */
async function interrupted(): Promise<SessionStore> {
  const session = memorySession()
  await session.append({ type: 'message', message: { role: 'user', content: 'go' } })
  await session.append({ type: 'message', turn: 1, message: callMessage([toolCall('c1', 'read'), toolCall('c2', 'read'), toolCall('c3', 'write')]) })
  await session.append({ type: 'tool/call', turn: 1, index: 0, call: { id: 'c1', name: 'read', arguments: {} } })
  await session.append({ type: 'tool/call', turn: 1, index: 1, call: { id: 'c2', name: 'read', arguments: {} } })
  await session.append({
    type: 'tool/result', turn: 1, index: 0,
    message: { role: 'tool', toolCallId: 'c1', content: [{ type: 'text', text: 'one' }], isError: false },
  })
  return session
}

describe('resume repair', () => {
  it('answers started calls TOOL_OUTCOME_UNKNOWN and unstarted ones TOOL_NOT_STARTED, running nothing again', async () => {
    const { ctx, gate } = await gatedHarness()
    const seen: string[] = []
    ctx.plugin({
      name: 'observer', inject: ['tools'],
      apply: (c: Context) => c.on('tools/result', (exec: ToolExec, result: ToolExecutionResult) => {
        seen.push(`${exec.id}:${result.isError && result.error.info?.code}`)
      }),
    })
    const session = await interrupted()
    const { agent, provider } = scriptedAgent(ctx, [], { session })
    const outcome = await agent.run('continue')
    expect(outcome.kind).toBe('completed')
    expect(gate.started).toEqual([])
    expect(seen).toEqual([`c2:${TOOL_OUTCOME_UNKNOWN}`, `c3:${TOOL_NOT_STARTED}`])
    const request = provider.requests[0].messages
    expect(validateTranscript(request)).toEqual([])
    expect(outcomes(request)).toEqual([
      'c1:ok',
      'c2:Error: tool call was interrupted and left no result; it may or may not have run; check before retrying',
      'c3:Error: tool call was never started (the run stopped before it); it did not run',
    ])
    expect(request.at(-1)).toEqual({ role: 'user', content: 'continue' })
    const entries = await session.load()
    expect(entries.filter((e) => e.type === 'turn/end')).toMatchObject([{ turn: 1, outcome: 'repaired' }])
  })

  it('repairs once: a later run adds nothing for calls already answered', async () => {
    const { ctx } = await gatedHarness()
    const session = await interrupted()
    const { agent } = scriptedAgent(ctx, [], { session })
    await agent.run('one')
    const count = (await session.load()).filter((e) => e.type === 'tool/result').length
    await scriptedAgent(ctx, [], { session }).agent.run('two')
    expect((await session.load()).filter((e) => e.type === 'tool/result')).toHaveLength(count)
    expect(count).toBe(3)
  })
})
