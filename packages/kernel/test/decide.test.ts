import { describe, expect, it } from 'vitest'
import { INVALID_ARGS, PIPELINE_FAILED, UNKNOWN_TOOL, failure, type ToolExecutionResult } from '../src/index.js'
import { call, echoTool, makeKernel, plug } from './helpers.js'

describe('decide: the pipeline up to the body, and nothing else', () => {
  it('allows without running the body, asking the approval service or telling an observer', async () => {
    const ctx = await makeKernel()
    const seen: string[] = []
    ctx.set('approval', { request: async () => { seen.push('approval'); return 'allow-once' } })
    await plug(ctx, 'watch', (ctx) => { ctx.on('tools/result', () => { seen.push('observer') }) })
    ctx.tools.register(echoTool({ execute: () => { seen.push('body'); return 'x' } }))
    expect(await ctx.tools.decide(call({ text: 'x' }))).toEqual({ kind: 'allow' })
    await plug(ctx, 'asker', (ctx) => { ctx.on('tools/pre-execute', async () => ({ kind: 'ask', reason: 'writes' })) })
    expect(await ctx.tools.decide(call({ text: 'x' }))).toEqual({ kind: 'ask', reason: 'writes' })
    expect(seen).toEqual([])
  })

  it('runs every guard after an allow and after an ask: a guard\'s deny wins over both', async () => {
    const ctx = await makeKernel()
    await plug(ctx, 'policy', (ctx) => { ctx.tools.guard((exec) => exec.arguments.text === 'rm' ? 'no rm' : undefined) })
    ctx.tools.register(echoTool())
    expect(await ctx.tools.decide(call({ text: 'rm' }))).toEqual({ kind: 'deny', reason: 'no rm' })
    await plug(ctx, 'asker', (ctx) => { ctx.on('tools/pre-execute', async () => ({ kind: 'ask' })) })
    expect(await ctx.tools.decide(call({ text: 'rm' }))).toEqual({ kind: 'deny', reason: 'no rm' })
    expect(await ctx.tools.decide(call({ text: 'ls' }))).toEqual({ kind: 'ask' })
  })

  it('runs no post-execute handler and no stage callback, whatever it decides', async () => {
    const ctx = await makeKernel()
    const seen: string[] = []
    await plug(ctx, 'post', (ctx) => { ctx.on('tools/post-execute', (_exec, _result, next) => { seen.push('post'); return next() }) })
    await plug(ctx, 'policy', (ctx) => { ctx.tools.guard((exec) => exec.arguments.text === 'rm' ? 'no rm' : undefined) })
    ctx.tools.register(echoTool())
    const stages = { bodyStart: () => { seen.push('bodyStart') }, postTurn: () => { seen.push('postTurn') }, postEnd: () => { seen.push('postEnd') } }
    expect(await ctx.tools.decide(call({ text: 'ls' }), { stages })).toEqual({ kind: 'allow' })
    expect(await ctx.tools.decide(call({ text: 'rm' }), { stages })).toEqual({ kind: 'deny', reason: 'no rm' })
    expect(await ctx.tools.decide({ id: 'c', name: 'nope', arguments: {} }, { stages })).toMatchObject({ kind: 'invalid', code: UNKNOWN_TOOL })
    expect(seen).toEqual([])
  })

  it('answers a pre-execute deny with its reason', async () => {
    const ctx = await makeKernel()
    await plug(ctx, 'no', (ctx) => { ctx.on('tools/pre-execute', async () => ({ kind: 'deny', reason: 'never' })) })
    ctx.tools.register(echoTool())
    expect(await ctx.tools.decide(call({ text: 'x' }))).toEqual({ kind: 'deny', reason: 'never' })
  })

  it('refuses what the pipeline refuses before pre-execute: unknown tool, bad arguments, a failing stage or guard', async () => {
    const ctx = await makeKernel()
    ctx.tools.register(echoTool())
    expect(await ctx.tools.decide({ id: 'c', name: 'nope', arguments: {} })).toMatchObject({ kind: 'invalid', code: UNKNOWN_TOOL })
    expect(await ctx.tools.decide(call({ text: 7 }))).toMatchObject({ kind: 'invalid', code: INVALID_ARGS, message: expect.stringContaining('invalid arguments for "echo"') })
    expect(await ctx.tools.decide({ id: 'c', name: 'echo', arguments: '{not json' })).toMatchObject({ kind: 'invalid', code: INVALID_ARGS })
    const guard = await plug(ctx, 'broken-guard', (ctx) => { ctx.tools.guard(() => { throw new Error('boom') }) })
    expect(await ctx.tools.decide(call({ text: 'x' }))).toMatchObject({ kind: 'invalid', code: PIPELINE_FAILED, message: expect.stringContaining('boom') })
    guard.dispose()
    await plug(ctx, 'broken', (ctx) => { ctx.on('tools/pre-execute', async () => { throw new Error('bang') }) })
    expect(await ctx.tools.decide(call({ text: 'x' }))).toMatchObject({ kind: 'invalid', code: PIPELINE_FAILED, message: expect.stringContaining('bang') })
  })
})

describe('observe: a call the host ran, handed to the observers', () => {
  it('reaches every tools/result observer with the decision, and waits for the holds', async () => {
    const ctx = await makeKernel()
    const seen: unknown[] = []
    let release!: () => void
    const held = new Promise<void>((resolve) => { release = resolve })
    await plug(ctx, 'watch', (ctx) => {
      ctx.on('tools/result', (exec, result) => { seen.push([exec.name, exec.arguments, exec.decision, result.isError]) })
      ctx.on('tools/hand-off', () => held)
    })
    const result: ToolExecutionResult = { isError: false, value: { ok: 1 }, content: [{ type: 'text', text: 'ran' }] }
    let settled = false
    const observed = ctx.tools.observe({ id: 'u1', name: 'Bash', arguments: { command: 'ls' } }, result, { decision: 'allow' })
      .then((out) => { settled = true; return out })
    await Promise.resolve()
    expect(settled).toBe(false)
    release()
    expect(await observed).toEqual(result)
    expect(seen).toEqual([['Bash', { command: 'ls' }, 'allow', false]])
  })

  it('observes a malformed result as the failure that says why', async () => {
    const ctx = await makeKernel()
    const out = await ctx.tools.observe({ id: 'u1', name: 'x', arguments: {} }, { isError: 'maybe' } as never)
    expect(out).toMatchObject({ isError: true, error: { info: { code: PIPELINE_FAILED } } })
    expect(await ctx.tools.observe({ id: 'u2', name: 'x', arguments: {} }, failure('TOOL_DENIED', 'no'))).toMatchObject({ isError: true })
  })
})
