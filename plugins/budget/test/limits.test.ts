import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Context } from 'cordis'
import { ABORTED, BUDGET_EXCEEDED, defineTool } from '@rein/kernel'
import { callMessage, textMessage, toolCall } from '@rein/testing'
import { readCounts } from '../src/index.js'
import { code, harness, mapState, results, runAgent, textOf } from './helpers.js'

const reads = (...ids: string[]) => callMessage(ids.map((id, i) => toolCall(id, 'read', { n: i, id })))

afterEach(() => { vi.restoreAllMocks() })

describe('the limits of one session', () => {
  it('maxCalls: the call past the limit is refused BUDGET_EXCEEDED, saying which limit, and never runs', async () => {
    const { ctx, ran } = await harness({ maxCalls: 2 })
    const { outcome, session } = await runAgent(ctx, [reads('a', 'b', 'c'), textMessage('done')])
    expect(outcome.kind).toBe('completed')
    expect(await results(session)).toEqual(['a:ok', 'b:ok', `c:${BUDGET_EXCEEDED}`])
    expect(ran).toEqual(['a', 'b'])
    expect(await textOf(session, 'c')).toBe('Error: budget exceeded: this session has used its 2 tool calls (maxCalls); read was not run, ' +
      'and further calls like it will be refused too; finish with what you have')
  })

  it('maxCallsPerTool: counts each tool apart', async () => {
    const { ctx, ran } = await harness({ maxCallsPerTool: 1 })
    const { session } = await runAgent(ctx, [
      callMessage([toolCall('r1', 'read', { x: 1 }), toolCall('p1', 'pay'), toolCall('r2', 'read', { x: 2 })]), textMessage('done'),
    ])
    expect(await results(session)).toEqual(['r1:ok', 'p1:ok', `r2:${BUDGET_EXCEEDED}`])
    expect(ran).toEqual(['r1', 'p1'])
    expect(await textOf(session, 'r2')).toMatch(/its 1 calls of read \(maxCallsPerTool\)/)
  })

  it.each(['__proto__', 'toString', 'constructor'])('maxCallsPerTool: holds for a tool named %s (only its own count is read)', async (name) => {
    const { ctx } = await harness({ maxCallsPerTool: 1 })
    const ran: string[] = []
    ctx.tools.register(defineTool({
      name, description: 'a tool named like an Object.prototype member', parameters: { type: 'object' }, isConcurrencySafe: () => true,
      execute: (_args, exec) => { ran.push(exec.id); return 'ok' },
    }))
    const ids = ['a', 'b', 'c', 'd', 'e']
    const { session } = await runAgent(ctx, [callMessage(ids.map((id, n) => toolCall(id, name, { n }))), textMessage('done')])
    expect(ran).toEqual(['a'])
    expect(await results(session)).toEqual(['a:ok', ...ids.slice(1).map((id) => `${id}:${BUDGET_EXCEEDED}`)])
    const stored = (await session.load()).filter((e) => e.type === 'state').at(-1)
    const perTool = stored?.type === 'state' ? stored.value as { perTool: Record<string, unknown> } : undefined
    expect(Object.entries(perTool!.perTool)).toEqual([[name, 5]])
  })

  it('maxCost: each call costs what the first matching glob says (none: 0); the call that would cross it is refused', async () => {
    const { ctx, ran } = await harness({ maxCost: 5, cost: { 'pa?': 3, '*': 1 } })
    const { session } = await runAgent(ctx, [
      callMessage([toolCall('p', 'pay'), toolCall('r1', 'read', { x: 1 }), toolCall('r2', 'read', { x: 2 }), toolCall('r3', 'read', { x: 3 })]),
      textMessage('done'),
    ])
    expect(await results(session)).toEqual(['p:ok', 'r1:ok', 'r2:ok', `r3:${BUDGET_EXCEEDED}`])
    expect(ran).toEqual(['p', 'r1', 'r2'])
    expect(await textOf(session, 'r3')).toMatch(/its cost limit of 5 \(maxCost; 5 used, this call costs 1\)/)
  })

  it('maxToolMs: sums the time inside tools/execute; once it is spent, the next call is refused', async () => {
    let now = 0
    vi.spyOn(performance, 'now').mockImplementation(() => now)
    const slow = (ctx: Context) => ctx.tools.register(defineTool({
      name: 'slow', description: 'takes 60 ms of the fake clock', parameters: { type: 'object' },
      execute: (_args, exec) => { now += 60; return exec.id },
    }))
    const { ctx } = await harness({ maxToolMs: 100 })
    slow(ctx)
    const { session } = await runAgent(ctx, [
      callMessage([toolCall('s1', 'slow', { n: 1 }), toolCall('s2', 'slow', { n: 2 }), toolCall('s3', 'slow', { n: 3 })]), textMessage('done'),
    ])
    expect(await results(session)).toEqual(['s1:ok', 's2:ok', `s3:${BUDGET_EXCEEDED}`])
    expect(await textOf(session, 's3')).toMatch(/its 100 ms of tool time \(maxToolMs; 120 ms used\)/)
  })

  it('maxToolMs: a call the kernel gives up on after an abort counts its time then, once', async () => {
    let now = 0
    vi.spyOn(performance, 'now').mockImplementation(() => now)
    const { ctx } = await harness({ maxToolMs: 100 }, { kernel: { abandonAfterMs: 0 } })
    let started!: () => void
    const running = new Promise<void>((resolve) => { started = resolve })
    let release!: () => void
    ctx.tools.register(defineTool({
      name: 'hang', description: 'ignores its signal and ends only when released', parameters: { type: 'object' },
      execute: () => { now += 150; started(); return new Promise<string>((resolve) => { release = () => resolve('late') }) },
    }))
    const state = mapState()
    const controller = new AbortController()
    const hung = ctx.tools.execute({ id: 'h', name: 'hang', arguments: {} }, { session: { id: 's', state }, signal: controller.signal })
    await running
    controller.abort()
    expect(code(await hung)).toBe(ABORTED)
    expect(readCounts(state).toolMs).toBe(150)
    now += 50
    release()
    await new Promise<void>((resolve) => setImmediate(resolve))
    expect(readCounts(state).toolMs).toBe(150)
    expect(code(await ctx.tools.execute({ id: 'r', name: 'read', arguments: {} }, { session: { id: 's', state } }))).toBe(BUDGET_EXCEEDED)
  })

  it('onExceeded end-run: the refused result ends the run after its batch, with the outcome stopped', async () => {
    const { ctx, ran } = await harness({ maxCalls: 1, onExceeded: 'end-run' })
    const { outcome, provider, session } = await runAgent(ctx, [reads('a', 'b', 'c'), textMessage('never asked')])
    expect(outcome.kind).toBe('stopped')
    expect(outcome.stop).toEqual({
      callId: 'b', tool: 'read', code: BUDGET_EXCEEDED,
      message: 'budget exceeded: this session has used its 1 tool calls (maxCalls); read was not run, and the run ends after this batch',
    })
    expect(await results(session)).toEqual(['a:ok', `b:${BUDGET_EXCEEDED}`, `c:${BUDGET_EXCEEDED}`])
    expect(ran).toEqual(['a'])
    expect(provider.requests).toHaveLength(1)
    expect((await session.load()).at(-1)).toMatchObject({ type: 'turn/end', outcome: 'committed' })
  })
})
