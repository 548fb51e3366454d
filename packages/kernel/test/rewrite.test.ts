import { describe, expect, it } from 'vitest'
import { INVALID_ARGS, TOOL_DENIED, type ToolExec } from '../src/index.js'
import { call, code, echoTool, firstText, makeKernel, plug } from './helpers.js'

const rewriteTo = (args: unknown) => (ctx: import('cordis').Context) => {
  ctx.on('tools/pre-execute', async () => ({ kind: 'allow', arguments: args }) as never)
}

describe('pre-execute may rewrite the arguments', () => {
  it('the body and every later stage see the rewritten, frozen arguments; observers also see the original', async () => {
    const ctx = await makeKernel()
    const seen: unknown[] = []
    await plug(ctx, 'watch', (ctx) => {
      ctx.on('tools/post-execute', async (exec, _result, next) => { seen.push(['post', exec.arguments]); return next() })
      ctx.on('tools/result', (exec) => { seen.push(['result', exec.arguments, exec.originalArguments]) })
    })
    await plug(ctx, 'sanitize', rewriteTo({ text: 'clean' }))
    ctx.tools.register(echoTool({ execute: (args: { text: string }, exec: ToolExec) => { seen.push(['body', Object.isFrozen(exec.arguments)]); return args.text } }))
    const result = await ctx.tools.execute(call({ text: 'dirty' }))
    expect([code(result), firstText(result)]).toEqual(['OK', 'clean'])
    expect(seen).toEqual([['body', true], ['post', { text: 'clean' }], ['result', { text: 'clean' }, { text: 'dirty' }]])
  })

  it('arguments the schema refuses are INVALID_ARGS and the body does not run', async () => {
    const ctx = await makeKernel()
    let ran = false
    await plug(ctx, 'sloppy', rewriteTo({ text: 42 }))
    ctx.tools.register(echoTool({ execute: () => { ran = true; return 'x' } }))
    const result = await ctx.tools.execute(call({ text: 'ok' }))
    expect(code(result)).toBe(INVALID_ARGS)
    expect(firstText(result)).toContain('pre-execute rewrote the arguments of "echo"')
    expect(ran).toBe(false)
  })

  it.each([['a list', ['x']], ['not JSON', { text: 1n }], ['a __proto__ key', JSON.parse('{"__proto__":{"x":1},"text":"a"}')]])('%s is INVALID_ARGS', async (_label, args) => {
    const ctx = await makeKernel()
    await plug(ctx, 'odd', rewriteTo(args))
    ctx.tools.register(echoTool())
    expect(code(await ctx.tools.execute(call({ text: 'ok' })))).toBe(INVALID_ARGS)
  })

  it('every guard runs on the rewritten arguments: an inner plugin cannot rewrite a call into one a guard denies', async () => {
    const ctx = await makeKernel()
    let ran = false
    await plug(ctx, 'policy', (ctx) => { ctx.tools.guard((exec) => exec.arguments.text === 'rm -rf /' ? 'no rm' : undefined) })
    await plug(ctx, 'sneaky', rewriteTo({ text: 'rm -rf /' }))
    ctx.tools.register(echoTool({ execute: () => { ran = true; return 'x' } }))
    const result = await ctx.tools.execute(call({ text: 'ls' }))
    expect([code(result), firstText(result), ran]).toEqual([TOOL_DENIED, 'Error: no rm', false])
  })

  it('decide answers the rewrite, after the guards passed it', async () => {
    const ctx = await makeKernel()
    await plug(ctx, 'policy', (ctx) => { ctx.tools.guard((exec) => exec.arguments.text === 'bad' ? 'no' : undefined) })
    const fork = await plug(ctx, 'sanitize', rewriteTo({ text: 'clean' }))
    ctx.tools.register(echoTool())
    expect(await ctx.tools.decide(call({ text: 'dirty' }))).toEqual({ kind: 'allow', arguments: { text: 'clean' } })
    fork.dispose()
    await plug(ctx, 'worse', rewriteTo({ text: 'bad' }))
    expect(await ctx.tools.decide(call({ text: 'dirty' }))).toEqual({ kind: 'deny', reason: 'no' })
  })
})
