import { describe, expect, it } from 'vitest'
import { callMessage, toolCall, validateTranscript } from '@rein/testing'
import { gatedHarness, outcomes, scriptedAgent, settle } from './helpers.js'

const plan = () => callMessage([
  toolCall('readA', 'read', { path: 'A' }),
  toolCall('readB', 'read', { path: 'B' }),
  toolCall('writeA', 'write', { path: 'A' }),
  toolCall('readC', 'read', { path: 'C' }),
])

describe('the scheduler', () => {
  it('runs [read A, read B, write A, read C] as three groups: {A, B} -> {write A} -> {C}', async () => {
    const { ctx, gate } = await gatedHarness()
    const { agent } = scriptedAgent(ctx, [plan()])
    const run = agent.run('go')
    await gate.whenRunning(2)
    expect(gate.started).toEqual(['readA', 'readB'])
    gate.release('readA')
    await settle()
    expect(gate.started).toEqual(['readA', 'readB'])
    gate.release('readB')
    await gate.whenStarted('writeA')
    await settle()
    expect(gate.running).toBe(1)
    gate.release('writeA')
    await gate.whenStarted('readC')
    gate.release('readC')
    const outcome = await run
    expect(outcome.kind).toBe('completed')
    expect(gate.log).toEqual([
      'start readA', 'start readB', 'end readA', 'end readB', 'start writeA', 'end writeA', 'start readC', 'end readC',
    ])
  })

  it('commits results in model order when B finishes before A, and plugins see model order', async () => {
    const { ctx, gate, stages } = await gatedHarness()
    const { agent, session } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read'), toolCall('b', 'read'), toolCall('c', 'read')])])
    const run = agent.run('go')
    await gate.whenRunning(3)
    gate.release('c')
    gate.release('b')
    await settle()
    expect(stages).toEqual(['pre a', 'pre b', 'pre c'])
    gate.release('a')
    const outcome = await run
    expect(gate.finished).toEqual(['c', 'b', 'a'])
    expect(stages).toEqual(['pre a', 'pre b', 'pre c', 'post a', 'post b', 'post c'])
    const committed = (await session.load()).filter((e) => e.type === 'tool/result').map((e) => e.type === 'tool/result' && e.index)
    expect(committed).toEqual([0, 1, 2])
    expect(outcomes(outcome.messages)).toEqual(['a:ok', 'b:ok', 'c:ok'])
    expect(validateTranscript(outcome.messages)).toEqual([])
  })

  it('never runs more than maxParallelToolCalls bodies at once, and refills the pool as calls finish', async () => {
    const { ctx, gate } = await gatedHarness()
    const calls = Array.from({ length: 7 }, (_, i) => toolCall(`c${i}`, 'read'))
    const { agent } = scriptedAgent(ctx, [callMessage(calls)], { maxParallelToolCalls: 3 })
    const run = agent.run('go')
    await gate.whenRunning(3)
    await settle()
    expect(gate.started).toEqual(['c0', 'c1', 'c2'])
    gate.release('c1')
    await gate.whenStarted('c3')
    await settle()
    expect(gate.started).toEqual(['c0', 'c1', 'c2', 'c3'])
    for (const call of calls) gate.release(call.id)
    const outcome = await run
    expect(gate.peak).toBe(3)
    expect(gate.started).toEqual(calls.map((c) => c.id))
    expect(outcomes(outcome.messages)).toEqual(calls.map((c) => `${c.id}:ok`))
  })

  it('runs post-execute one call at a time, in model order, even when bodies finish in reverse', async () => {
    const { ctx, gate } = await gatedHarness()
    const active: string[] = []
    let overlap = false
    ctx.plugin({
      name: 'slow-post', inject: ['tools'],
      apply: (c: typeof ctx) => c.on('tools/post-execute', async (exec, _r, next) => {
        if (active.length > 0) overlap = true
        active.push(exec.id)
        await settle()
        active.pop()
        return next()
      }),
    })
    const { agent } = scriptedAgent(ctx, [callMessage([toolCall('x', 'read'), toolCall('y', 'read'), toolCall('z', 'read')])])
    const run = agent.run('go')
    await gate.whenRunning(3)
    gate.release('z')
    gate.release('y')
    gate.release('x')
    await run
    expect(overlap).toBe(false)
  })

  it('treats a call whose tool is unknown or whose arguments are invalid JSON as exclusive, and answers it', async () => {
    const { ctx, gate } = await gatedHarness()
    const { agent } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read'), toolCall('bad', 'read', '{oops'), toolCall('b', 'read')])])
    const run = agent.run('go')
    await gate.whenStarted('a')
    await settle()
    expect(gate.started).toEqual(['a'])
    gate.release('a')
    await gate.whenStarted('b')
    gate.release('b')
    const outcome = await run
    expect(outcomes(outcome.messages)[1]).toMatch(/^bad:Error: invalid arguments for "read": arguments are not valid JSON/)
  })
})
