/**
 * `ctx.tools.adopt` (DESIGN.md §7.3): a reconciled call's value is checked against the output
 * schema and rendered like a body's, goes through post-execute, never through pre-execute,
 * guards or `tools/execute`, and carries `meta.reconciled: true`. Also: `reconcile` must be a
 * function, and `idempotencyKeyOf` gives the key a call's exec carries.
 */
import { describe, expect, it } from 'vitest'
import { INVALID_TOOL_OUTPUT, PIPELINE_FAILED, ToolDefinitionError, UNKNOWN_TOOL, idempotencyKeyOf, type ToolExec } from '../src/index.js'
import { call, code, echoTool, firstText, makeKernel, plug } from './helpers.js'

describe('ctx.tools.adopt', () => {
  it('commits the value through the output check, render and post-execute, and nothing before the body', async () => {
    const ctx = await makeKernel()
    const seen: string[] = []
    let ran = 0
    ctx.tools.register(echoTool({
      execute: () => { ran++; return 'ran' },
      output: { schema: { type: 'string' }, render: (args: { text: string }, value: string) => [{ type: 'text', text: `${args.text}=${value}` }] },
    }))
    await plug(ctx, 'watcher', (c) => {
      c.on('tools/pre-execute', (exec: ToolExec, next) => { seen.push('pre'); return next() })
      c.on('tools/execute', (exec: ToolExec, next) => { seen.push('execute'); return next() })
      c.on('tools/post-execute', (exec: ToolExec, result, next) => {
        seen.push(`post reconciled=${String(exec.meta.reconciled)} value=${JSON.stringify(!result.isError && result.value)}`)
        return next()
      })
      c.tools.guard(() => { seen.push('guard') })
    })
    const result = await ctx.tools.adopt(call({ text: 'a' }), 'done before the crash', { turn: 2, session: { id: 's' } })
    expect(code(result)).toBe('OK')
    expect(firstText(result)).toBe('a=done before the crash')
    expect(result.meta).toEqual({ reconciled: true })
    expect(Object.isFrozen(result)).toBe(true)
    expect(seen).toEqual(['post reconciled=true value="done before the crash"'])
    expect(ran).toBe(0)
  })

  it('lets post-execute change or block the value, as for any call', async () => {
    const ctx = await makeKernel()
    ctx.tools.register(echoTool())
    await plug(ctx, 'blocker', (c) => c.on('tools/post-execute', () => Promise.resolve({ kind: 'block', feedback: 'not shown' })))
    const result = await ctx.tools.adopt(call({ text: 'a' }), 'secret')
    expect(result.isError).toBe(true)
    expect(firstText(result)).toContain('not shown')
    expect(result.meta).toEqual({ reconciled: true })
  })

  it('fails a value that does not fit the output schema, or is not JSON, as INVALID_TOOL_OUTPUT', async () => {
    const ctx = await makeKernel()
    ctx.tools.register(echoTool())
    const wrong = await ctx.tools.adopt(call({ text: 'a' }), 42)
    expect(code(wrong)).toBe(INVALID_TOOL_OUTPUT)
    expect(firstText(wrong)).toContain('does not fit its output schema')
    const notJson = await ctx.tools.adopt(call({ text: 'a' }), () => 'a function')
    expect(code(notJson)).toBe(INVALID_TOOL_OUTPUT)
  })

  it('answers UNKNOWN_TOOL for a tool that is not registered, and rejects options execute would refuse', async () => {
    const ctx = await makeKernel()
    expect(code(await ctx.tools.adopt(call({}, 'gone'), 'x'))).toBe(UNKNOWN_TOOL)
    ctx.tools.register(echoTool())
    await expect(ctx.tools.adopt(call({ text: 'a' }), 'x', { signal: 'no' as never })).rejects.toThrow(/options.signal of adopt/)
    await plug(ctx, 'broken', (c) => c.on('tools/post-execute', () => { throw new Error('post broke') }))
    expect(code(await ctx.tools.adopt(call({ text: 'a' }), 'x'))).toBe(PIPELINE_FAILED)
  })
})

describe('defineTool({ reconcile })', () => {
  it('must be a function, or the tool does not register', async () => {
    const ctx = await makeKernel()
    expect(() => ctx.tools.register(echoTool({ reconcile: 'yes' as never }))).toThrow(ToolDefinitionError)
    expect(() => ctx.tools.register(echoTool({ reconcile: 'yes' as never }))).toThrow(/reconcile must be a function/)
    expect(() => ctx.tools.register(echoTool({ reconcile: () => ({ ran: false }) }))).not.toThrow()
  })
})

describe('idempotencyKeyOf', () => {
  it('is the key the exec of the call carries at that place, and another at another place', async () => {
    const ctx = await makeKernel()
    ctx.tools.register(echoTool({ execute: (_args, exec: ToolExec) => exec.idempotencyKey }))
    const place = { session: { id: 'runs/a.jsonl' }, turn: 4, parent: 'p1' }
    const result = await ctx.tools.execute(call({ text: 'a' }, 'echo', 'c9'), place)
    expect(!result.isError && result.value).toBe(idempotencyKeyOf('c9', place))
    expect(idempotencyKeyOf('c9', { ...place, turn: 5 })).not.toBe(idempotencyKeyOf('c9', place))
    expect(idempotencyKeyOf('c9', {})).not.toBe(idempotencyKeyOf('c9', place))
  })
})
