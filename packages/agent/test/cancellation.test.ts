import { describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { ABORTED, ABORTED_BEFORE_DISPATCH, TOOL_FAILED, type ToolExec } from '@rein/kernel'
import { callMessage, toolCall, validateTranscript } from '@rein/testing'
import type { SessionStore } from '../src/index.js'
import { gatedHarness, scriptedAgent, settle } from './helpers.js'

/** `id:code` (or `id:ok`) of every committed result, in log order; and how many calls were logged. */
async function logOf(session: SessionStore) {
  const entries = await session.load()
  return {
    results: entries.flatMap((e) => e.type === 'tool/result' ? [`${e.message.toolCallId}:${e.code ?? 'ok'}`] : []),
    logged: entries.filter((e) => e.type === 'tool/call').map((e) => e.type === 'tool/call' && e.call.id).sort(),
  }
}

describe('abort', () => {
  it('before the batch: every call gets tool/call + ABORTED_BEFORE_DISPATCH, none runs', async () => {
    const { ctx, gate } = await gatedHarness()
    const controller = new AbortController()
    const { agent, session } = scriptedAgent(ctx, [() => {
      controller.abort()
      return callMessage([toolCall('a', 'read'), toolCall('w', 'write')])
    }])
    const outcome = await agent.run('go', { signal: controller.signal })
    expect(outcome.kind).toBe('aborted')
    expect(gate.started).toEqual([])
    expect(await logOf(session)).toEqual({ results: [`a:${ABORTED_BEFORE_DISPATCH}`, `w:${ABORTED_BEFORE_DISPATCH}`], logged: ['a', 'w'] })
    expect(validateTranscript(outcome.messages)).toEqual([])
  })

  it('while the model is thinking: the run ends aborted and nothing is appended', async () => {
    const { ctx } = await gatedHarness()
    const controller = new AbortController()
    const { agent } = scriptedAgent(ctx, [async (req) => {
      controller.abort()
      req.signal?.throwIfAborted()
      return callMessage([toolCall('a', 'read')])
    }])
    const outcome = await agent.run('go', { signal: controller.signal })
    expect(outcome.kind).toBe('aborted')
    expect(outcome.messages.map((m) => m.role)).toEqual(['user'])
  })

  it('during pre-execute: the call in pre-execute and the one queued behind it never run their bodies', async () => {
    const { ctx, gate } = await gatedHarness()
    const controller = new AbortController()
    let inPre!: () => void
    const reachedPre = new Promise<void>((resolve) => { inPre = resolve })
    ctx.plugin({
      name: 'slow-pre', inject: ['tools'],
      apply: (c: Context) => c.on('tools/pre-execute', async (exec: ToolExec, next) => {
        if (exec.id === 'b') {
          inPre()
          await new Promise((resolve) => exec.signal.addEventListener('abort', resolve))
        }
        return next()
      }),
    })
    const { agent, session } = scriptedAgent(ctx, [callMessage([
      toolCall('a', 'read'), toolCall('b', 'read'), toolCall('c', 'read'), toolCall('w', 'write'),
    ])])
    const run = agent.run('go', { signal: controller.signal })
    await gate.whenStarted('a')
    await reachedPre
    controller.abort()
    const outcome = await run
    expect(outcome.kind).toBe('aborted')
    expect(gate.started).toEqual(['a'])
    expect(await logOf(session)).toEqual({
      results: [`a:${ABORTED}`, `b:${ABORTED_BEFORE_DISPATCH}`, `c:${ABORTED_BEFORE_DISPATCH}`, `w:${ABORTED_BEFORE_DISPATCH}`],
      logged: ['a', 'b', 'c', 'w'],
    })
    expect(validateTranscript(outcome.messages)).toEqual([])
  })

  it('mid-pool: started calls drain and commit their real outcome; unstarted ones are never run', async () => {
    const { ctx, gate } = await gatedHarness()
    ctx.tools.register(gate.tool('deaf', { ignoreSignal: true }))
    const controller = new AbortController()
    const { agent, session } = scriptedAgent(ctx, [callMessage([
      toolCall('polite', 'read'), toolCall('deafOk', 'deaf'), toolCall('deafFails', 'deaf'), toolCall('queued', 'read'),
    ])], { maxParallelToolCalls: 3 })
    const run = agent.run('go', { signal: controller.signal })
    await gate.whenRunning(3)
    controller.abort()
    await settle()
    expect(gate.running).toBe(2)
    gate.release('deafOk')
    gate.fail('deafFails', 'broke on its own')
    const outcome = await run
    expect(outcome.kind).toBe('aborted')
    expect(gate.started).toEqual(['polite', 'deafOk', 'deafFails'])
    expect(await logOf(session)).toEqual({
      results: [`polite:${ABORTED}`, `deafOk:${ABORTED}`, `deafFails:${TOOL_FAILED}`, `queued:${ABORTED_BEFORE_DISPATCH}`],
      logged: ['deafFails', 'deafOk', 'polite', 'queued'],
    })
    expect(validateTranscript(outcome.messages)).toEqual([])
  })

  it('at a barrier: the exclusive call and everything after it never start', async () => {
    const { ctx, gate } = await gatedHarness()
    const controller = new AbortController()
    const { agent, session } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read'), toolCall('w', 'write'), toolCall('c', 'read')])])
    const run = agent.run('go', { signal: controller.signal })
    await gate.whenStarted('a')
    gate.release('a')
    controller.abort()
    const outcome = await run
    expect(gate.started).toEqual(['a'])
    const { results } = await logOf(session)
    expect(results.slice(1)).toEqual([`w:${ABORTED_BEFORE_DISPATCH}`, `c:${ABORTED_BEFORE_DISPATCH}`])
    expect(validateTranscript(outcome.messages)).toEqual([])
    expect(outcome.messages.at(-1)?.role).toBe('tool')
  })

  it('after an aborted run, the next run continues from a valid transcript', async () => {
    const { ctx, gate } = await gatedHarness()
    const controller = new AbortController()
    const { agent, provider } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read')])])
    const run = agent.run('go', { signal: controller.signal })
    await gate.whenStarted('a')
    controller.abort()
    expect((await run).kind).toBe('aborted')
    const next = await agent.run('again')
    expect(next.kind).toBe('completed')
    expect(validateTranscript(provider.requests[1].messages)).toEqual([])
  })
})
