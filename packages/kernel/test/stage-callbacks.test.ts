import type { Context } from 'cordis'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEPENDENCY_FAILED, TOOL_DENIED } from '../src/index.js'
import { call, code, echoTool, makeKernel, plug } from './helpers.js'

describe("a caller's stage callbacks", () => {
  let ctx: Context
  let log: string[]
  const stages = () => ({
    bodyStart: () => { log.push('bodyStart') },
    bodyEnd: () => { log.push('bodyEnd') },
    postTurn: async () => { log.push('postTurn'); await Promise.resolve(); log.push('postTurn done') },
  })
  beforeEach(async () => {
    ctx = await makeKernel()
    log = []
    ctx.tools.register(echoTool({ execute: (args: { text: string }) => { log.push('body'); return args.text } }))
    await plug(ctx, 'p', (ctx) => {
      ctx.on('tools/pre-execute', async (_e, next) => { log.push('pre'); return next() })
      ctx.on('tools/execute', async (_e, next) => { log.push('execute in'); const r = await next(); log.push('execute out'); return r })
      ctx.on('tools/post-execute', async (_e, _r, next) => { log.push('post'); return next() })
      ctx.tools.guard(() => { log.push('guard'); return undefined })
    })
  })
  afterEach(() => ctx.stop())

  it('wrap the body onion and precede post-execute, outside every plugin', async () => {
    await ctx.tools.execute(call({ text: 'x' }), { stages: stages() })
    expect(log).toEqual(['pre', 'guard', 'bodyStart', 'execute in', 'body', 'execute out', 'bodyEnd', 'postTurn', 'postTurn done', 'post'])
  })

  it('a denied call never starts its body but still waits for its post turn', async () => {
    await plug(ctx, 'deny', (ctx) => { ctx.tools.guard(() => 'no') })
    const result = await ctx.tools.execute(call({ text: 'x' }), { stages: stages() })
    expect(code(result)).toBe(TOOL_DENIED)
    expect(log).toEqual(['pre', 'guard', 'postTurn', 'postTurn done', 'post'])
  })

  it('a call the scheduler settles waits for its post turn too', async () => {
    const result = await ctx.tools.settle(call({ text: 'x' }), DEPENDENCY_FAILED, 'depends on a, which failed: no', { stages: stages() })
    expect(code(result)).toBe(DEPENDENCY_FAILED)
    expect(log).toEqual(['postTurn', 'postTurn done', 'post'])
  })
})
