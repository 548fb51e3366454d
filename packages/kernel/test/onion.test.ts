import { describe, expect, it } from 'vitest'
import { Messages, PIPELINE_FAILED, TOOL_DENIED, TOOL_TIMEOUT, failure } from '../src/index.js'
import { call, code, echoTool, firstText, makeKernel, plug } from './helpers.js'

describe('hooks on a real Context', () => {
  it('three plugins on each hook run in registration order, prepend first', async () => {
    const ctx = await makeKernel()
    const log: string[] = []
    const hookAll = (name: string, prepend = false) => (ctx: import('cordis').Context) => {
      ctx.on('tools/pre-execute', async (_e, next) => { log.push(`${name}:pre`); return next() }, { prepend })
      ctx.on('tools/execute', async (_e, next) => {
        log.push(`${name}:exec>`)
        const r = await next()
        log.push(`${name}:exec<`)
        return r
      }, { prepend })
      ctx.on('tools/post-execute', async (_e, _r, next) => { log.push(`${name}:post`); return next() }, { prepend })
      ctx.on('tools/result', () => { log.push(`${name}:result`) }, { prepend })
    }
    await plug(ctx, 'a', hookAll('a'))
    await plug(ctx, 'b', hookAll('b'))
    await plug(ctx, 'c', hookAll('c'))
    await plug(ctx, 'first', hookAll('first', true))
    ctx.tools.register(echoTool({ execute: (args: { text: string }) => { log.push('body'); return args.text } }))
    await ctx.tools.execute(call({ text: 'x' }))
    expect(log).toEqual([
      'first:pre', 'a:pre', 'b:pre', 'c:pre',
      'first:exec>', 'a:exec>', 'b:exec>', 'c:exec>', 'body', 'c:exec<', 'b:exec<', 'a:exec<', 'first:exec<',
      'first:post', 'a:post', 'b:post', 'c:post',
      'first:result', 'a:result', 'b:result', 'c:result',
    ])
    expect(ctx.tools.chain('tools/execute')).toEqual(['first', 'a', 'b', 'c'])
  })

  it('a handler that never calls next() decides alone: inner handlers and the body do not run', async () => {
    const ctx = await makeKernel()
    let inner = 0
    let body = 0
    await plug(ctx, 'gate', (ctx) => { ctx.on('tools/pre-execute', async () => ({ kind: 'deny', reason: 'closed' })) })
    await plug(ctx, 'inner', (ctx) => { ctx.on('tools/pre-execute', async (_e, next) => { inner++; return next() }) })
    ctx.tools.register(echoTool({ execute: () => { body++; return 'x' } }))
    const result = await ctx.tools.execute(call({ text: 'x' }))
    expect([code(result), inner, body]).toEqual([TOOL_DENIED, 0, 0])
  })

  it('next() called twice is a clear error result, not a crash', async () => {
    const ctx = await makeKernel()
    await plug(ctx, 'twice', (ctx) => {
      ctx.on('tools/post-execute', async (_e, _r, next) => { await next(); return next() })
    })
    ctx.tools.register(echoTool())
    const result = await ctx.tools.execute(call({ text: 'x' }))
    expect(code(result)).toBe(PIPELINE_FAILED)
    expect(firstText(result)).toBe('Error: plugin "twice" called next() more than once in tools/post-execute')
  })

  it('a handler returning a non-decision is PIPELINE_FAILED naming it', async () => {
    const ctx = await makeKernel()
    await plug(ctx, 'vague', (ctx) => { ctx.on('tools/pre-execute', async () => ({ kind: 'maybe' }) as never) })
    ctx.tools.register(echoTool())
    const result = await ctx.tools.execute(call({ text: 'x' }))
    expect(firstText(result)).toBe(
      'Error: plugin "vague" returned an invalid value from tools/pre-execute: expected { kind: "allow" | "deny" | "ask" }')
  })

  it('a throwing tools/result observer is contained and does not skip the others', async () => {
    const ctx = await makeKernel()
    const seen: string[] = []
    await plug(ctx, 'loud', (ctx) => { ctx.on('tools/result', () => { throw new Error('observer broke') }) })
    await plug(ctx, 'quiet', (ctx) => { ctx.on('tools/result', (exec, result) => { seen.push(`${exec.id}:${code(result)}`) }) })
    ctx.tools.register(echoTool())
    const result = await ctx.tools.execute(call({ text: 'x' }))
    expect(code(result)).toBe('OK')
    expect(seen).toEqual(['call_1:OK'])
  })

  it('a tools/execute wrapper may swap exec.signal; the kernel restores the caller\'s', async () => {
    const ctx = await makeKernel()
    const seenByBody: AbortSignal[] = []
    const inner = new AbortController()
    await plug(ctx, 'swapper', (ctx) => {
      ctx.on('tools/execute', async (exec, next) => { exec.signal = inner.signal; return next() })
    })
    let postSignal: AbortSignal | undefined
    await plug(ctx, 'post', (ctx) => { ctx.on('tools/post-execute', async (exec, _r, next) => { postSignal = exec.signal; return next() }) })
    ctx.tools.register(echoTool({ execute: (args: { text: string }, exec) => { seenByBody.push(exec.signal); return args.text } }))
    const caller = new AbortController()
    await ctx.tools.execute(call({ text: 'x' }), { signal: caller.signal })
    expect(seenByBody).toEqual([inner.signal])
    expect(postSignal).toBe(caller.signal)
  })

  it('handlers see `this` as the registering plugin\'s context', async () => {
    const ctx = await makeKernel()
    let name: string | undefined
    await plug(ctx, 'self-aware', (ctx) => {
      ctx.on('tools/pre-execute', async function (this: import('cordis').Context, _e, next) { name = this.name; return next() })
    })
    ctx.tools.register(echoTool())
    await ctx.tools.execute(call({ text: 'x' }))
    expect(name).toBe('self-aware')
  })
})

describe('views of exec inside tools/execute', () => {
  it('an attempt given up on keeps its own signal when a later attempt swaps in another', async () => {
    const ctx = await makeKernel()
    const attempt2 = new AbortController().signal
    const given = { up: [] as Promise<unknown>[] }
    let releaseLate!: () => void
    const late = new Promise<void>((resolve) => { releaseLate = resolve })
    await plug(ctx, 'retry-ish', (ctx) => {
      ctx.on('tools/execute', async (exec, next) => {
        await next()
        exec.signal = attempt2
        return next()
      })
    })
    let firstAttempt = true
    await plug(ctx, 'gives-up', (ctx) => {
      ctx.on('tools/execute', async (exec, next) => {
        if (!firstAttempt) return next()
        firstAttempt = false
        exec.signal = AbortSignal.abort()
        given.up.push(next())
        return failure(TOOL_TIMEOUT, Messages.timedOut(1))
      })
    })
    const seen: { late?: AbortSignal, second?: AbortSignal } = {}
    let runs = 0
    ctx.tools.register(echoTool({
      execute: async (args: { text: string }, exec) => {
        if (runs++ === 0) {
          await late
          seen.late = exec.signal
          exec.meta.lateWrite = true
          return 'late'
        }
        seen.second = exec.signal
        return args.text
      },
    }))
    const result = await ctx.tools.execute(call({ text: 'second' }))
    releaseLate()
    await Promise.all(given.up)
    expect(code(result)).toBe('OK')
    expect(seen.second).toBe(attempt2)
    expect(seen.late?.aborted).toBe(true)
    expect(seen.late).not.toBe(attempt2)
  })

  it('facts written to exec.meta in the body reach the result', async () => {
    const ctx = await makeKernel()
    await plug(ctx, 'wrapper', (ctx) => { ctx.on('tools/execute', async (_e, next) => next()) })
    ctx.tools.register(echoTool({ execute: (args: { text: string }, exec) => { exec.meta.seen = args.text; return args.text } }))
    const result = await ctx.tools.execute(call({ text: 'x' }))
    expect(result.meta).toEqual({ seen: 'x' })
  })
})
