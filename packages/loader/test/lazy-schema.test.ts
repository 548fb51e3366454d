/**
 * With `compileOnFirstUse` (what the loader gives the kernel for a harness it only inspects), a
 * tool's JSON Schemas are checked when it registers and compiled by ajv once, on first use:
 * registering loads no ajv, a bad schema still fails at `register`, and each schema is
 * compiled exactly once however many calls validate against it. By default they compile at
 * `register`, so the first call is as fast as any other.
 */
import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import * as kernel from '@rein/kernel'
import { defineTool, ToolDefinitionError, type SchemaCompile, type ToolDefinition, type ToolExecutionResult } from '@rein/kernel'
import { compileOnFirstUse } from '../src/schema-shape.js'

/** A started kernel whose schemas go through `how`, and how many times ajv compiled one. */
async function kernelWith(how: SchemaCompile = compileOnFirstUse) {
  const compiled = { count: 0 }
  const ctx = new Context()
  ctx.plugin(kernel, { compileSchema: (schema, compile) => how(schema, (own) => { compiled.count++; return compile(own) }) })
  await ctx.start()
  return { ctx, compiled }
}

const echoTool = (overrides: Partial<ToolDefinition> = {}) => defineTool({
  name: 'echo',
  description: 'Echo the text back.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  output: { schema: { type: 'string' } },
  execute: (args: { text: string }) => args.text,
  ...overrides,
})
const call = (args: unknown) => ({ id: 'call_1', name: 'echo', arguments: args })
const code = (result: ToolExecutionResult) => result.isError ? result.error.info?.code : 'OK'

describe('schemas compiled on first use', () => {
  it('registering compiles nothing; the first call compiles each schema once; later calls reuse them', async () => {
    const { ctx, compiled } = await kernelWith()
    ctx.tools.register(echoTool())
    expect(ctx.tools.specs().map((s) => s.name)).toEqual(['echo'])
    expect(compiled.count).toBe(0)
    expect(code(await ctx.tools.execute(call({ text: 'a' })))).toBe('OK')
    expect(compiled.count).toBe(2) // the parameters, then the output schema
    expect(code(await ctx.tools.execute(call({ text: 'b' })))).toBe('OK')
    expect(code(await ctx.tools.execute(call({ text: 3 })))).toBe('INVALID_ARGS')
    expect(compiled.count).toBe(2)
  })

  it('an invalid schema still fails at register, with ajv\'s own reason, before any call', async () => {
    const { ctx } = await kernelWith()
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
    const { ctx, compiled } = await kernelWith()
    const nullable = { type: 'string', nullable: true }
    ctx.tools.register(echoTool({ parameters: { type: 'object', properties: { text: nullable }, required: ['text'] }, output: { schema: nullable } }))
    expect(compiled.count).toBe(2)
    expect(code(await ctx.tools.execute(call({ text: null })))).toBe('OK')
    expect(code(await ctx.tools.execute(call({ text: 1 })))).toBe('INVALID_ARGS')
    expect(compiled.count).toBe(2)
  })

  it('validates against the schema as it was registered, not as the caller changes it later', async () => {
    const { ctx } = await kernelWith()
    const output = { schema: { type: 'string' } as Record<string, unknown> }
    ctx.tools.register(echoTool({ output }))
    output.schema.type = 'number'
    expect(code(await ctx.tools.execute(call({ text: 'still a string' })))).toBe('OK')
  })

  it('rein check\'s path (checkArguments) compiles on first use too', async () => {
    const { ctx, compiled } = await kernelWith()
    ctx.tools.register(echoTool())
    expect(ctx.tools.checkArguments('echo', { text: 1 })).toEqual(['/text: must be string'])
    expect(ctx.tools.checkArguments('echo', { text: 'x' })).toBeUndefined()
    expect(compiled.count).toBe(1)
  })
})

describe('compileOnFirstUse', () => {
  it('a schema ajv refuses after the check vouched for it answers every value with the reason', () => {
    const validate = compileOnFirstUse({ type: 'object' }, () => { throw new Error('a gap in the check') })
    expect(validate({})).toEqual(["the schema could not be compiled (a gap in the check); the tool's author must fix it"])
  })

  it('throws at register for a schema that cannot even be copied', async () => {
    const { ctx } = await kernelWith()
    expect(() => ctx.tools.register(echoTool({ parameters: { type: 'object', default: () => 1 } }))).toThrow(/could not be cloned/)
  })

  it('by default the kernel compiles at register, so no call pays for it', async () => {
    const { ctx, compiled } = await kernelWith((schema, compile) => compile(schema))
    ctx.tools.register(echoTool())
    expect(compiled.count).toBe(2)
    expect(code(await ctx.tools.execute(call({ text: 'a' })))).toBe('OK')
    expect(compiled.count).toBe(2)
  })
})
