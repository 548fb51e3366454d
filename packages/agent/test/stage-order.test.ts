import { describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { callMessage, toolCall } from '@rein/testing'
import { createAgent } from '../src/index.js'
import { gatedHarness, scriptedAgent } from './helpers.js'

describe("the agent orders stages through the kernel's stage callbacks", () => {
  it('registers no plugin or hook on the context, however many agents are created', async () => {
    const { ctx } = await gatedHarness()
    for (let i = 0; i < 5; i++) scriptedAgent(ctx, [], { name: `a${i}` })
    expect(ctx.tools.chain('tools/execute')).toEqual([])
    expect(ctx.tools.chain('tools/post-execute')).toEqual(['recorder'])
  })

  it('keeps post-execute in model order even outside a plugin prepended after the agent was made', async () => {
    const { ctx, gate, stages } = await gatedHarness()
    const { agent } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read'), toolCall('b', 'read')])])
    ctx.plugin({
      name: 'late', inject: ['tools'],
      apply: (c: Context) => c.on('tools/post-execute', async (exec, _r, next) => { stages.push(`late ${exec.id}`); return next() }, { prepend: true }),
    })
    const run = agent.run('go')
    await gate.whenRunning(2)
    gate.release('b')
    gate.release('a')
    await run
    expect(stages.filter((s) => !s.startsWith('pre'))).toEqual(['late a', 'post a', 'late b', 'post b'])
  })

  it('leaves calls it did not start alone', async () => {
    const { ctx, gate } = await gatedHarness()
    scriptedAgent(ctx, [])
    gate.release('direct')
    expect(await ctx.tools.execute({ id: 'direct', name: 'read', arguments: {} })).toMatchObject({ isError: false })
  })

  it('keeps two agents on one context apart', async () => {
    const { ctx, gate } = await gatedHarness()
    const one = createAgent(ctx, { provider: { generate: async () => callMessage([toolCall('x', 'read')]) }, name: 'one', maxTurns: 1 })
    const two = createAgent(ctx, { provider: { generate: async () => callMessage([toolCall('x', 'read')]) }, name: 'two', maxTurns: 1 })
    const runs = [one.run('go'), two.run('go')]
    await gate.whenRunning(2)
    gate.release('x')
    gate.release('x')
    expect((await Promise.all(runs)).map((o) => o.kind)).toEqual(['max-turns', 'max-turns'])
  })
})
