import { describe, expect, it } from 'vitest'
import type { SessionRef } from '../src/index.js'
import { call, echoTool, makeKernel, plug } from './helpers.js'

describe('exec.session (DESIGN.md §7.1)', () => {
  it('every hook, every tools/execute layer and the body see the session the caller named', async () => {
    const ctx = await makeKernel()
    const seen: Array<[string, SessionRef | undefined]> = []
    await plug(ctx, 'watch', (ctx) => {
      ctx.on('tools/pre-execute', (exec, next) => { seen.push(['pre', exec.session]); return next() })
      ctx.on('tools/execute', (exec, next) => { seen.push(['exec', exec.session]); return next() })
      ctx.on('tools/post-execute', (exec, _r, next) => { seen.push(['post', exec.session]); return next() })
      ctx.on('tools/result', (exec) => { seen.push(['result', exec.session]) })
    })
    ctx.tools.register(echoTool({ execute: (args: { text: string }, exec) => { seen.push(['body', exec.session]); return args.text } }))
    const session = { id: 'runs/a.jsonl' }
    await ctx.tools.execute(call({ text: 'x' }), { session })
    expect(seen.map(([stage]) => stage)).toEqual(['pre', 'exec', 'body', 'post', 'result'])
    for (const [, ref] of seen) expect(ref).toBe(session)
  })

  it('a call given no session has none: per-session plugins keep no state for it', async () => {
    const ctx = await makeKernel()
    let seen: SessionRef | undefined | 'unset' = 'unset'
    ctx.tools.register(echoTool({ execute: (args: { text: string }, exec) => { seen = exec.session; return args.text } }))
    await ctx.tools.execute(call({ text: 'x' }))
    expect(seen).toBeUndefined()
  })
})
