/** The recording session: timing, mode and plugin facts added to a real agent's entries. */
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { createAgent, buildMessages, memorySession } from '@rein/agent'
import { callMessage, scripted, textMessage, toolCall, validateTranscript } from '@rein/testing'
import { describe, expect, it } from 'vitest'
import { recordingSession } from '../src/session/recorder.js'

describe('recordingSession', () => {
  it('adds at to every entry, mode to each call and the measured duration and meta to each result', async () => {
    const ctx = new Context()
    ctx.plugin(kernel)
    await ctx.start()
    ctx.plugin({
      name: 'facts', inject: ['tools'],
      apply: (c: Context) => c.on('tools/execute', async (exec, next) => {
        exec.meta.attempts = 1
        return next()
      }),
    })
    await ctx.start()
    ctx.tools.register({ name: 'read', description: 'r', parameters: { type: 'object' }, isConcurrencySafe: () => true, execute: () => 'r' })
    ctx.tools.register({ name: 'write', description: 'w', parameters: { type: 'object' }, execute: () => 'w' })
    let clock = 1000
    const session = recordingSession(memorySession(), ctx, () => clock++)
    const agent = createAgent(ctx, {
      provider: scripted([callMessage([toolCall('r1', 'read'), toolCall('w1', 'write')]), textMessage('ok')]),
      session,
    })
    expect((await agent.run('go')).kind).toBe('completed')
    await session.close()

    const entries = await session.load()
    expect(validateTranscript(buildMessages(entries))).toEqual([])
    for (const entry of entries) expect((entry as { at?: number }).at).toBeGreaterThanOrEqual(1000)
    const calls = entries.filter((e) => e.type === 'tool/call') as unknown as { call: { id: string }, mode: string }[]
    expect(calls.map((e) => [e.call.id, e.mode])).toEqual([['r1', 'parallel'], ['w1', 'exclusive']])
    const results = entries.filter((e) => e.type === 'tool/result') as unknown as { durationMs: unknown, meta: unknown }[]
    for (const result of results) {
      expect(typeof result.durationMs).toBe('number')
      expect(result.meta).toEqual({ attempts: 1 })
    }
  })
})
