import { describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { callMessage, toolCall } from '@rein/testing'
import { createAgent } from '../src/index.js'
import { gatedHarness, scriptedAgent } from './helpers.js'

describe('the agent\'s stage hooks', () => {
  it('sit outermost on tools/execute and tools/post-execute, and go away with dispose()', async () => {
    const { ctx } = await gatedHarness()
    const { agent } = scriptedAgent(ctx, [], { name: 'main' })
    expect(ctx.tools.chain('tools/execute')).toEqual(['agent:main'])
    expect(ctx.tools.chain('tools/post-execute')).toEqual(['agent:main', 'recorder'])
    agent.dispose()
    expect(ctx.tools.chain('tools/post-execute')).toEqual(['recorder'])
  })

  it('let calls the agent did not start pass straight through', async () => {
    const { ctx, gate } = await gatedHarness()
    scriptedAgent(ctx, [])
    gate.release('direct')
    expect(await ctx.tools.execute({ id: 'direct', name: 'read', arguments: {} })).toMatchObject({ isError: false })
  })

  it('move back outermost before a batch when a plugin was prepended after the agent', async () => {
    const { ctx, gate, stages } = await gatedHarness()
    const { agent } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read'), toolCall('b', 'read')])])
    ctx.plugin({
      name: 'late', inject: ['tools'],
      apply: (c: Context) => c.on('tools/post-execute', async (exec, _r, next) => { stages.push(`late ${exec.id}`); return next() }, { prepend: true }),
    })
    expect(ctx.tools.chain('tools/post-execute')[0]).toBe('late')
    const run = agent.run('go')
    await gate.whenRunning(2)
    expect(ctx.tools.chain('tools/post-execute')).toEqual(['agent:agent', 'late', 'recorder'])
    gate.release('b')
    gate.release('a')
    await run
    expect(stages.filter((s) => !s.startsWith('pre'))).toEqual(['late a', 'post a', 'late b', 'post b'])
  })

  it('keep two agents on one context apart', async () => {
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

it('does not reinstall when only another agent\'s stage hooks sit outside', async () => {
  const { ctx, gate } = await gatedHarness()
  const { agent } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read')])], { name: 'first' })
  scriptedAgent(ctx, [], { name: 'second' })
  const before = ctx.tools.chain('tools/execute')
  gate.release('a')
  expect((await agent.run('go')).kind).toBe('completed')
  expect(before).toEqual(['agent:second', 'agent:first'])
  expect(ctx.tools.chain('tools/execute')).toEqual(before)
})
