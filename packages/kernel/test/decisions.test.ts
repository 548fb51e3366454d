import { describe, expect, it } from 'vitest'
import { TOOL_DENIED, type ApprovalService } from '../src/index.js'
import { call, code, echoTool, firstText, makeKernel, plug } from './helpers.js'

describe('decisions', () => {
  it('a guard\'s deny survives a later pre-execute handler returning allow', async () => {
    const ctx = await makeKernel()
    await plug(ctx, 'policy', (ctx) => { ctx.tools.guard((exec) => exec.name === 'echo' ? 'echo is forbidden' : undefined) })
    await plug(ctx, 'yes-man', (ctx) => { ctx.on('tools/pre-execute', async () => ({ kind: 'allow' }), { prepend: true }) })
    ctx.tools.register(echoTool())
    const result = await ctx.tools.execute(call({ text: 'x' }))
    expect([code(result), firstText(result)]).toEqual([TOOL_DENIED, 'Error: echo is forbidden'])
  })

  it('ask without an approval service is a deny', async () => {
    const ctx = await makeKernel()
    await plug(ctx, 'asker', (ctx) => { ctx.on('tools/pre-execute', async () => ({ kind: 'ask', reason: 'writes files' })) })
    ctx.tools.register(echoTool())
    const result = await ctx.tools.execute(call({ text: 'x' }))
    expect(firstText(result)).toBe('Error: "echo" needs approval (writes files), and no approval service is available')
  })

  it.each([
    ['allow-once', 'OK', 'x'],
    ['allow-session', 'OK', 'x'],
    ['deny', TOOL_DENIED, 'Error: "echo" was denied at approval (writes files)'],
  ] as const)('ask answered %s', async (answer, expected, text) => {
    const ctx = await makeKernel()
    const requests: string[] = []
    const approval: ApprovalService = {
      request: async ({ exec, reason }) => { requests.push(`${exec.id}:${reason}`); return answer },
    }
    ctx.set('approval', approval)
    await plug(ctx, 'asker', (ctx) => { ctx.on('tools/pre-execute', async () => ({ kind: 'ask', reason: 'writes files' })) })
    ctx.tools.register(echoTool())
    const result = await ctx.tools.execute(call({ text: 'x' }))
    expect([code(result), firstText(result)]).toEqual([expected, text])
    expect(requests).toEqual(['call_1:writes files'])
  })

  it('an approval service that throws is a deny; guards still run after an approved ask', async () => {
    const ctx = await makeKernel()
    ctx.set('approval', { request: async () => { throw new Error('terminal closed') } } satisfies ApprovalService)
    await plug(ctx, 'asker', (ctx) => { ctx.on('tools/pre-execute', async () => ({ kind: 'ask' })) })
    ctx.tools.register(echoTool())
    expect(firstText(await ctx.tools.execute(call({ text: 'x' }))))
      .toBe('Error: "echo" needs approval, and the approval service failed: terminal closed')

    const other = await makeKernel()
    other.set('approval', { request: async () => 'allow-session' } satisfies ApprovalService)
    await plug(other, 'asker', (ctx) => { ctx.on('tools/pre-execute', async () => ({ kind: 'ask' })) })
    await plug(other, 'guard', (ctx) => { ctx.tools.guard(() => 'still no') })
    other.tools.register(echoTool())
    expect(firstText(await other.tools.execute(call({ text: 'x' })))).toBe('Error: still no')
  })

  it('post-execute may replace content and value and add context; the outer handler sees the inner decision', async () => {
    const ctx = await makeKernel()
    let outerSaw: unknown
    await plug(ctx, 'outer', (ctx) => {
      ctx.on('tools/post-execute', async (_e, _r, next) => { outerSaw = await next(); return outerSaw as never })
    })
    await plug(ctx, 'redactor', (ctx) => {
      ctx.on('tools/post-execute', async () => ({
        kind: 'accept', value: '[redacted]', content: [{ type: 'text', text: '[redacted]' }],
        additionalContexts: [{ type: 'text', text: 'a secret was removed' }],
      }))
    })
    ctx.tools.register(echoTool())
    const result = await ctx.tools.execute(call({ text: 'sk-secret' }))
    expect(result).toEqual({
      isError: false, value: '[redacted]', content: [{ type: 'text', text: '[redacted]' }],
      additionalContexts: [{ type: 'text', text: 'a secret was removed' }],
    })
    expect(outerSaw).toMatchObject({ kind: 'accept', value: '[redacted]' })
  })

  it('accepting a denied result with new content keeps it a denial, first line intact', async () => {
    const ctx = await makeKernel()
    await plug(ctx, 'denier', (ctx) => { ctx.on('tools/pre-execute', async () => ({ kind: 'deny', reason: 'nope' })) })
    await plug(ctx, 'rewriter', (ctx) => {
      ctx.on('tools/post-execute', async () => ({ kind: 'accept', content: [{ type: 'text', text: 'all good!' }] }))
    })
    ctx.tools.register(echoTool())
    const result = await ctx.tools.execute(call({ text: 'x' }))
    expect(result.isError).toBe(true)
    expect(result.content).toEqual([{ type: 'text', text: 'Error: nope' }, { type: 'text', text: 'all good!' }])
  })

  it('arguments and results are deep-frozen; the caller\'s object is not', async () => {
    const ctx = await makeKernel()
    let seenArgs: unknown
    ctx.tools.register(echoTool({
      parameters: { type: 'object' },
      output: undefined,
      execute: (args: unknown) => { seenArgs = args; return { nested: { list: [1, 2] } } },
    }))
    const input = { text: 'x', deep: { a: [1] } }
    const result = await ctx.tools.execute(call(input))
    expect(Object.isFrozen(seenArgs)).toBe(true)
    expect(Object.isFrozen((seenArgs as typeof input).deep.a)).toBe(true)
    expect(Object.isFrozen(input)).toBe(false)
    expect(Object.isFrozen(result)).toBe(true)
    expect(Object.isFrozen(result.content[0])).toBe(true)
    expect(Object.isFrozen((result as unknown as { value: { nested: { list: number[] } } }).value.nested.list)).toBe(true)
  })

  it('specs() shows exactly name, description and parameters, never timeoutMs or idempotent', async () => {
    const ctx = await makeKernel()
    ctx.tools.register(echoTool({ timeoutMs: 5_000, idempotent: true, isConcurrencySafe: () => true }))
    expect(ctx.tools.specs()).toEqual([{
      name: 'echo',
      description: 'Echo the text back.',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    }])
  })

  it('executionMode is parallel only for a known tool, valid arguments and exactly true', async () => {
    const ctx = await makeKernel()
    ctx.tools.register(echoTool({ name: 'safe', isConcurrencySafe: () => true }))
    ctx.tools.register(echoTool({ name: 'truthy', isConcurrencySafe: () => 1 as unknown as boolean }))
    ctx.tools.register(echoTool({ name: 'throws', isConcurrencySafe: () => { throw new Error('x') } }))
    ctx.tools.register(echoTool({ name: 'unsaid' }))
    const mode = (name: string, args: unknown = { text: 'a' }) => ctx.tools.executionMode(call(args, name))
    expect(mode('safe')).toBe('parallel')
    expect(mode('safe', '{"text":"a"}')).toBe('parallel')
    expect(mode('safe', {})).toBe('exclusive')
    expect(mode('safe', '{bad')).toBe('exclusive')
    expect(mode('truthy')).toBe('exclusive')
    expect(mode('throws')).toBe('exclusive')
    expect(mode('unsaid')).toBe('exclusive')
    expect(mode('missing')).toBe('exclusive')
  })

  it('progress reports reach the caller\'s onProgress', async () => {
    const ctx = await makeKernel()
    ctx.tools.register(echoTool({ execute: (args: { text: string }, exec) => { exec.progress({ progress: 1, total: 2 }); return args.text } }))
    const reports: unknown[] = []
    await ctx.tools.execute(call({ text: 'x' }), { onProgress: (info) => reports.push(info) })
    expect(reports).toEqual([{ progress: 1, total: 2 }])
  })
})

describe('exec.decision', () => {
  it('tells observers the decision the kernel acted on, and nothing for a call that never reached pre-execute', async () => {
    const ctx = await makeKernel()
    await plug(ctx, 'policy', (ctx) => {
      ctx.on('tools/pre-execute', async (exec, next) => {
        const { text } = exec.arguments as { text: string }
        return text === 'deny' ? { kind: 'deny', reason: 'no' } : text === 'ask' ? { kind: 'ask' } : next()
      })
    })
    const seen: [string, string | undefined][] = []
    await plug(ctx, 'observer', (ctx) => { ctx.on('tools/result', (exec) => { seen.push([exec.id, exec.decision]) }) })
    ctx.tools.register(echoTool())
    for (const text of ['go', 'deny', 'ask']) await ctx.tools.execute(call({ text }, 'echo', text))
    await ctx.tools.execute(call({}, 'missing', 'unknown'))
    await ctx.tools.execute(call({ text: 1 }, 'echo', 'invalid'))
    await ctx.tools.settle(call({ text: 'x' }, 'echo', 'settled'), TOOL_DENIED, 'by the scheduler')
    expect(seen).toEqual([['go', 'allow'], ['deny', 'deny'], ['ask', 'ask'], ['unknown', undefined], ['invalid', undefined], ['settled', undefined]])
    await ctx.stop()
  })
})
