import { describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { knownDecision, type PostToolDecision, type PreToolDecision } from '../src/index.js'
import { call, code, echoTool, makeKernel, plug } from './helpers.js'

/** Runs one call and says whether its body had started by the time `execute` returned. */
async function startsAtOnce(ctx: Context): Promise<boolean> {
  let started = false
  const pending = ctx.tools.execute(call({ text: 'x' }), { stages: { bodyStart: () => { started = true } } })
  const atOnce = started
  expect(code(await pending)).toBe('OK')
  return atOnce
}

describe('handing next() on', () => {
  it('a pre-execute handler that returns what next() gave it leaves the stage synchronous; one that waits does not', async () => {
    const passing = await makeKernel()
    passing.tools.register(echoTool())
    await plug(passing, 'pass', (ctx) => { ctx.on('tools/pre-execute', (_exec, next) => next()) })
    await plug(passing, 'pass-too', (ctx) => { ctx.on('tools/pre-execute', (_exec, next) => next()) })
    expect(await startsAtOnce(passing)).toBe(true)

    const waiting = await makeKernel()
    waiting.tools.register(echoTool())
    await plug(waiting, 'waits', (ctx) => { ctx.on('tools/pre-execute', async (_exec, next) => next()) })
    expect(await startsAtOnce(waiting)).toBe(false)
  })

  it('knownDecision answers the innermost default only, and a handler acting on it changes nothing it should not', async () => {
    const ctx = await makeKernel()
    ctx.tools.register(echoTool())
    const seen: (PreToolDecision | PostToolDecision | undefined)[] = []
    await plug(ctx, 'outer', (ctx) => {
      ctx.on('tools/pre-execute', (_exec, next) => {
        const inner = next()
        seen.push(knownDecision(inner))
        return inner
      })
      ctx.on('tools/post-execute', (_exec, _result, next) => {
        const inner = next()
        seen.push(knownDecision(inner))
        return inner
      })
    })
    expect(code(await ctx.tools.execute(call({ text: 'x' })))).toBe('OK')
    expect(seen).toEqual([{ kind: 'allow' }, { kind: 'accept' }])

    // With a handler inside that decides, the outer one must wait for it.
    seen.length = 0
    await plug(ctx, 'inner', (ctx) => {
      ctx.on('tools/pre-execute', async () => ({ kind: 'deny', reason: 'closed' }))
      ctx.on('tools/post-execute', async (_exec, _result, next) => next())
    })
    const denied = await ctx.tools.execute(call({ text: 'x' }))
    expect(code(denied)).toBe('TOOL_DENIED')
    expect(seen).toEqual([undefined, undefined])
    expect(knownDecision(Promise.resolve({ kind: 'allow' } as PreToolDecision))).toBeUndefined()
  })

  it('a handler that hands on a promise other than the one next() gave it is checked as before', async () => {
    const ctx = await makeKernel()
    ctx.tools.register(echoTool())
    await plug(ctx, 'forger', (ctx) => {
      ctx.on('tools/pre-execute', (_exec, next) => {
        void next()
        return Promise.resolve({ kind: 'maybe' } as unknown as PreToolDecision)
      })
    })
    const result = await ctx.tools.execute(call({ text: 'x' }))
    expect(code(result)).toBe('PIPELINE_FAILED')
  })
})
