import type { Context } from 'cordis'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ExecuteOptions, ToolExecutionResult } from '../src/index.js'
import { call, echoTool, makeKernel, plug } from './helpers.js'

/** The key the body of `echo` sees for one call made with `options` on a fresh kernel (a fresh process, as far as the key goes). */
async function keyOf(options: ExecuteOptions, id = 'call_1', ctx?: Context): Promise<string> {
  if (!ctx) {
    ctx = await makeKernel()
    ctx.tools.register(echoTool({ execute: (args: { text: string }, exec) => exec.idempotencyKey }))
  }
  const result = await ctx.tools.execute(call({ text: 'x' }, 'echo', id), options)
  return result.isError ? '' : result.value as string
}

describe('exec.idempotencyKey (DESIGN.md §7.3)', () => {
  it('is the same for every attempt of a retried call, and the same in every hook that reads it', async () => {
    const ctx = await makeKernel()
    const seen: string[] = []
    await plug(ctx, 'retry-twice', (ctx) => {
      ctx.on('tools/pre-execute', (exec, next) => { seen.push(exec.idempotencyKey); return next() })
      ctx.on('tools/execute', async (exec, next) => {
        await next()
        return next()
      })
    })
    ctx.tools.register(echoTool({ execute: (args: { text: string }, exec) => { seen.push(exec.idempotencyKey); return args.text } }))
    await ctx.tools.execute(call({ text: 'x' }), { session: { id: 's1' }, turn: 3 })
    expect(seen).toHaveLength(3)
    expect(new Set(seen).size).toBe(1)
  })

  it('is the same for the same call of the same session in another harness (a resume, a worker takeover)', async () => {
    const options = { session: { id: 'runs/a.jsonl' }, turn: 2 }
    expect(await keyOf(options)).toBe(await keyOf({ ...options, index: 5, agent: 'other' }))
  })

  it('differs for the same call id in another session, another turn, or under another run_code parent', async () => {
    const base = await keyOf({ session: { id: 'a' }, turn: 1 })
    const others = await Promise.all([
      keyOf({ session: { id: 'b' }, turn: 1 }),
      keyOf({ session: { id: 'a' }, turn: 2 }),
      keyOf({ session: { id: 'a' }, turn: 1, parent: 'p1' }),
      keyOf({ turn: 1 }),
    ])
    expect(new Set([base, ...others]).size).toBe(5)
  })

  it('without a session, comes from the call alone', async () => {
    expect(await keyOf({})).toBe(await keyOf({}))
    expect(await keyOf({}, 'call_2')).not.toBe(await keyOf({}))
  })

  it('is opaque: no session id or call id can be read in it, and equal keys mean equal places', async () => {
    const place = fc.record({
      session: fc.option(fc.string({ minLength: 12 }), { nil: undefined }),
      turn: fc.option(fc.nat(1000), { nil: undefined }),
      parent: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
      id: fc.string({ minLength: 12 }),
    })
    const ctx = await makeKernel()
    ctx.tools.register(echoTool({ execute: (_args: { text: string }, exec) => exec.idempotencyKey }))
    await fc.assert(fc.asyncProperty(place, place, async (a, b) => {
      const options = (p: typeof a): ExecuteOptions => ({ session: p.session === undefined ? undefined : { id: p.session }, turn: p.turn, parent: p.parent })
      const [ka, kb] = [await keyOf(options(a), a.id, ctx), await keyOf(options(b), b.id, ctx)]
      expect(ka).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(ka.includes(a.id)).toBe(false)
      if (a.session !== undefined) expect(ka.includes(a.session)).toBe(false)
      const same = a.session === b.session && a.turn === b.turn && a.parent === b.parent && a.id === b.id
      expect(ka === kb).toBe(same)
    }), { numRuns: 200 })
  })
})

describe('result.endsRun', () => {
  it('survives the layers outside the plugin that set it, and a post-execute accept', async () => {
    const ctx = await makeKernel()
    await plug(ctx, 'outer', (ctx) => {
      ctx.on('tools/execute', (_exec, next) => next())
      ctx.on('tools/post-execute', (_exec, _result, next) => next())
    })
    await plug(ctx, 'stopper', (ctx) => {
      ctx.on('tools/execute', () => ({
        isError: true, content: [{ type: 'text', text: 'Error: spent' }], error: { message: 'spent', info: { code: 'BUDGET_EXCEEDED' } }, endsRun: true,
      } as ToolExecutionResult) as never)
    })
    ctx.tools.register(echoTool())
    const result = await ctx.tools.execute(call({ text: 'x' }))
    expect(result).toMatchObject({ isError: true, endsRun: true, error: { info: { code: 'BUDGET_EXCEEDED' } } })
  })
})
