import { describe, expect, it } from 'vitest'
import { ToolDefinitionError, UNKNOWN_TOOL } from '../src/index.js'
import { call, code, echoTool, makeKernel, plug } from './helpers.js'

describe('plugin scoping', () => {
  it('disposing a plugin removes exactly its hooks, tools and guards', async () => {
    const ctx = await makeKernel()
    const register = (name: string) => (ctx: import('cordis').Context) => {
      ctx.on('tools/pre-execute', async (_e, next) => next())
      ctx.on('tools/execute', async (_e, next) => next())
      ctx.on('tools/post-execute', async (_e, _r, next) => next())
      ctx.on('tools/result', () => {})
      ctx.on('tools/hand-off', () => {})
      ctx.tools.guard(() => undefined)
      ctx.tools.register(echoTool({ name: `${name}_tool` }))
    }
    const a = await plug(ctx, 'a', register('a'))
    await plug(ctx, 'b', register('b'))
    const hooks = ['tools/pre-execute', 'tools/execute', 'tools/post-execute', 'tools/result', 'tools/hand-off', 'guards'] as const
    for (const hook of hooks) expect(ctx.tools.chain(hook)).toEqual(['a', 'b'])
    a.dispose()
    for (const hook of hooks) expect(ctx.tools.chain(hook)).toEqual(['b'])
    expect(ctx.tools.specs().map((s) => s.name)).toEqual(['b_tool'])
    expect(code(await ctx.tools.execute(call({ text: 'x' }, 'a_tool')))).toBe(UNKNOWN_TOOL)
    expect(code(await ctx.tools.execute(call({ text: 'x' }, 'b_tool')))).toBe('OK')
  })

  it('the disposer returned by register and guard removes just that one', async () => {
    const ctx = await makeKernel()
    const off = ctx.tools.register(echoTool())
    const offGuard = ctx.tools.guard(() => 'no')
    expect(code(await ctx.tools.execute(call({ text: 'x' })))).toBe('TOOL_DENIED')
    offGuard()
    expect(code(await ctx.tools.execute(call({ text: 'x' })))).toBe('OK')
    off()
    expect(ctx.tools.get('echo')).toBeUndefined()
  })

  it('a bad definition fails at register, naming the tool and the fix', async () => {
    const ctx = await makeKernel()
    expect(() => ctx.tools.register(echoTool({ parameters: { type: 'object', properties: { n: { type: 'intgr' } } } })))
      .toThrow(/^tool "echo" \(registered by "root"\): parameters is not a valid JSON Schema: /)
    expect(() => ctx.tools.register(echoTool({ name: 'has space' })))
      .toThrow('tool "has space" (registered by "root"): name must be 1-64 letters, digits, "_" or "-"')
    expect(() => ctx.tools.register(echoTool({ parameters: { type: 'string' } })))
      .toThrow(ToolDefinitionError)
    ctx.tools.register(echoTool())
    await plug(ctx, 'dup', (ctx) => {
      expect(() => ctx.tools.register(echoTool())).toThrow('tool "echo" is already registered by plugin "root"; tool names must be unique')
    })
  })

  it('two contexts never share tools or hooks', async () => {
    const one = await makeKernel()
    const two = await makeKernel()
    one.tools.register(echoTool())
    await plug(one, 'only-one', (ctx) => { ctx.tools.guard(() => 'no') })
    expect(two.tools.get('echo')).toBeUndefined()
    expect(two.tools.chain('guards')).toEqual([])
  })
})

describe('schemas', () => {
  it('a tool whose schema has an $id can be unregistered and registered again', async () => {
    const ctx = await makeKernel()
    const withId = () => echoTool({
      parameters: { $id: 'https://example.com/echo.json', type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    })
    ctx.tools.register(withId())()
    ctx.tools.register(withId())
    expect(code(await ctx.tools.execute(call({ text: 'x' })))).toBe('OK')
    expect(code(await ctx.tools.execute(call({ text: 1 })))).toBe('INVALID_ARGS')
  })
})
