/**
 * With `compileSchemas: 'first-use'` (what the loader asks for a harness it only inspects), a
 * tool's JSON Schemas are checked when it registers and compiled by ajv once, on first use:
 * registering loads no ajv, a bad schema still fails at `register`, and each schema is
 * compiled exactly once however many calls validate against it. By default they compile at
 * `register`, so the first call is as fast as any other.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ToolDefinitionError } from '../src/index.js'
import { SchemaCompiler } from '../src/schema.js'
import { call, code, echoTool, makeKernel } from './helpers.js'

afterEach(() => { vi.restoreAllMocks() })

const LAZY = { compileSchemas: 'first-use' } as const

describe('schemas compiled on first use', () => {
  it('registering compiles nothing; the first call compiles each schema once; later calls reuse them', async () => {
    const compile = vi.spyOn(SchemaCompiler.prototype, 'compile')
    const ctx = await makeKernel(LAZY)
    ctx.tools.register(echoTool())
    expect(ctx.tools.specs().map((s) => s.name)).toEqual(['echo'])
    expect(compile).not.toHaveBeenCalled()
    expect(code(await ctx.tools.execute(call({ text: 'a' })))).toBe('OK')
    expect(compile).toHaveBeenCalledTimes(2) // the parameters, then the output schema
    expect(code(await ctx.tools.execute(call({ text: 'b' })))).toBe('OK')
    expect(code(await ctx.tools.execute(call({ text: 3 })))).toBe('INVALID_ARGS')
    expect(compile).toHaveBeenCalledTimes(2)
  })

  it('an invalid schema still fails at register, with ajv\'s own reason, before any call', async () => {
    const ctx = await makeKernel(LAZY)
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: 'object', properties: { n: { type: 'intgr' } } }, /must be equal to one of the allowed values/],
      [{ type: 'object', properties: { s: { type: 'string', pattern: '(' } } }, /Invalid regular expression/],
      [{ type: 'object', properties: { s: { $ref: '#/definitions/nowhere' } } }, /can't resolve reference #\/definitions\/nowhere/],
      [{ type: 'object', properties: { e: { enum: [] } } }, /must NOT have fewer than 1 items/],
      [{ type: 'object', properties: { n: { nullable: true } } }, /"nullable" cannot be used without "type"/],
      [{ type: 'object', properties: { n: { id: 'x' } } }, /NOT SUPPORTED: keyword "id"/],
    ]
    for (const [parameters, reason] of cases) {
      const attempt = () => ctx.tools.register(echoTool({ parameters }))
      expect(attempt).toThrow(ToolDefinitionError)
      expect(attempt).toThrow(/^tool "echo" \(registered by "root"\): parameters is not a valid JSON Schema: /)
      expect(attempt).toThrow(reason)
    }
    expect(() => ctx.tools.register(echoTool({ output: { schema: { type: 'string', minLength: 'one' } } })))
      .toThrow(/^tool "echo" \(registered by "root"\): output.schema is not a valid JSON Schema: .*minLength must be integer/)
    expect(ctx.tools.specs()).toEqual([])
  })

  it('a valid schema the check cannot vouch for is compiled at register, and works', async () => {
    const compile = vi.spyOn(SchemaCompiler.prototype, 'compile')
    const ctx = await makeKernel(LAZY)
    const nullable = { type: 'string', nullable: true }
    ctx.tools.register(echoTool({ parameters: { type: 'object', properties: { text: nullable }, required: ['text'] }, output: { schema: nullable } }))
    expect(compile).toHaveBeenCalledTimes(2)
    expect(code(await ctx.tools.execute(call({ text: null })))).toBe('OK')
    expect(code(await ctx.tools.execute(call({ text: 1 })))).toBe('INVALID_ARGS')
    expect(compile).toHaveBeenCalledTimes(2)
  })

  it('validates against the schema as it was registered, not as the caller changes it later', async () => {
    const ctx = await makeKernel(LAZY)
    const output = { schema: { type: 'string' } as Record<string, unknown> }
    ctx.tools.register(echoTool({ output }))
    output.schema.type = 'number'
    expect(code(await ctx.tools.execute(call({ text: 'still a string' })))).toBe('OK')
  })

  it('rein check\'s path (checkArguments) compiles on first use too', async () => {
    const compile = vi.spyOn(SchemaCompiler.prototype, 'compile')
    const ctx = await makeKernel(LAZY)
    ctx.tools.register(echoTool())
    expect(ctx.tools.checkArguments('echo', { text: 1 })).toEqual(['/text: must be string'])
    expect(ctx.tools.checkArguments('echo', { text: 'x' })).toBeUndefined()
    expect(compile).toHaveBeenCalledTimes(1)
  })
})

describe('SchemaCompiler.prepare', () => {
  it('loads and compiles nothing until the validator is first called', () => {
    const compiler = new SchemaCompiler(true)
    const compile = vi.spyOn(compiler, 'compile')
    const validate = compiler.prepare({ type: 'object', properties: { n: { type: 'integer' } } })
    expect(compile).not.toHaveBeenCalled()
    expect(validate({ n: 1.5 })).toEqual(['/n: must be integer'])
    expect(validate({ n: 2 })).toBeUndefined()
    expect(compile).toHaveBeenCalledTimes(1)
  })

  it('throws at once, as compile does, for a schema that cannot even be copied', () => {
    expect(() => new SchemaCompiler().prepare({ type: 'object', default: () => 1 })).toThrow(/could not be cloned/)
  })

  it('by default compile at register, so no call pays for it', async () => {
    const compile = vi.spyOn(SchemaCompiler.prototype, 'compile')
    const ctx = await makeKernel()
    ctx.tools.register(echoTool())
    expect(compile).toHaveBeenCalledTimes(2)
    expect(code(await ctx.tools.execute(call({ text: 'a' })))).toBe('OK')
    expect(compile).toHaveBeenCalledTimes(2)
  })
})
