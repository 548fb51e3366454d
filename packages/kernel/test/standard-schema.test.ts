import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import type { Context } from 'cordis'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { INVALID_ARGS, INVALID_TOOL_OUTPUT, ToolDefinitionError, defineTool, type StandardSchema } from '../src/index.js'
import { call, code, firstText, makeKernel } from './helpers.js'

/** The same parameters, written in each library: a path and an optional integer limit (default 10). */
const libraries: Record<string, StandardSchema<unknown, { path: string, limit: number }>> = {
  zod: z.object({ path: z.string().min(1), limit: z.number().int().default(10) }),
  valibot: toStandardJsonSchema(v.object({ path: v.pipe(v.string(), v.minLength(1)), limit: v.optional(v.pipe(v.number(), v.integer()), 10) })),
  arktype: type({ path: 'string > 0', limit: 'number.integer = 10' }),
}

describe.each(Object.keys(libraries))('a tool whose parameters are a %s schema', (library) => {
  let ctx: Context
  let received: unknown[]
  beforeEach(async () => {
    ctx = await makeKernel()
    received = []
    ctx.tools.register(defineTool({
      name: 'read', description: 'reads a file',
      parameters: libraries[library]!,
      execute: (args) => { received.push(args); return `read ${args.path} (${args.limit})` },
    }))
  })
  afterEach(() => ctx.stop())

  it('shows the model its JSON Schema (an object with the fields, no $schema)', () => {
    const [spec] = ctx.tools.specs()
    expect(spec!.parameters).toMatchObject({ type: 'object', properties: { path: { type: 'string' } } })
    expect(spec!.parameters).not.toHaveProperty('$schema')
    expect(spec!.parameters.required).toContain('path')
  })

  it('hands execute the schema output (defaults applied), frozen, as the arguments every hook saw', async () => {
    const seen: unknown[] = []
    ctx.on('tools/pre-execute', async (exec, next) => { seen.push(exec.arguments); return next() })
    const result = await ctx.tools.execute(call({ path: 'a.txt' }, 'read'))
    expect(firstText(result)).toBe('read a.txt (10)')
    expect(received).toEqual([{ path: 'a.txt', limit: 10 }])
    expect(seen[0]).toBe(received[0])
    expect(Object.isFrozen(received[0])).toBe(true)
  })

  it('feeds its issues back like ajv lines: INVALID_ARGS naming the field', async () => {
    const result = await ctx.tools.execute(call({ path: 7, limit: 1.5 }, 'read'))
    expect(code(result)).toBe(INVALID_ARGS)
    expect(firstText(result)).toMatch(/^Error: invalid arguments for "read": \/path: .+; \/limit: .+$/)
    expect(received).toEqual([])
  })

  it('still refuses a __proto__ key before the schema sees it', async () => {
    const result = await ctx.tools.execute(call('{"path":"a","__proto__":{"limit":1}}', 'read'))
    expect(firstText(result)).toBe('Error: invalid arguments for "read": arguments may not contain the key "__proto__"')
  })

  it('classifies calls on the checked arguments', () => {
    expect(ctx.tools.executionMode(call({ path: 'a' }, 'read'))).toBe('exclusive')
    expect(ctx.tools.checkArguments('read', { path: '' })).toEqual([expect.stringMatching(/^\/path: /)])
    expect(ctx.tools.checkArguments('read', { path: 'a' })).toBeUndefined()
  })
})

describe('Standard Schema tools', () => {
  let ctx: Context
  beforeEach(async () => { ctx = await makeKernel() })
  afterEach(() => ctx.stop())

  it('types execute from the schema', () => {
    defineTool({
      name: 't', description: 'typed', parameters: z.object({ n: z.number() }),
      execute: (args) => { expectTypeOf(args).toEqualTypeOf<{ n: number }>(); return args.n },
    })
  })

  it('an output schema checks the value once, and its output is the value', async () => {
    ctx.tools.register(defineTool({
      name: 'count', description: 'counts', parameters: z.object({}),
      output: { schema: z.object({ n: z.number().int() }) },
      execute: () => ({ n: 3, extra: 'dropped by the schema' }),
    }))
    const result = await ctx.tools.execute(call({}, 'count'))
    expect(result.isError === false && result.value).toEqual({ n: 3 })
    ctx.tools.register(defineTool({
      name: 'bad', description: 'returns a fraction', parameters: z.object({}),
      output: { schema: z.object({ n: z.number().int() }) }, execute: () => ({ n: 1.5 }),
    }))
    const bad = await ctx.tools.execute(call({}, 'bad'))
    expect(code(bad)).toBe(INVALID_TOOL_OUTPUT)
    expect(firstText(bad)).toMatch(/does not fit its output schema: \/n: /)
  })

  it('a schema whose output is not plain JSON is INVALID_ARGS, never a Date the guards cannot see', async () => {
    ctx.tools.register(defineTool({
      name: 'when', description: 'takes a date', parameters: z.object({ at: z.string().transform((s) => new Date(s)) }),
      execute: () => 'ran',
    }))
    const result = await ctx.tools.execute(call({ at: '2026-01-01' }, 'when'))
    expect(code(result)).toBe(INVALID_ARGS)
    expect(firstText(result)).toContain("the schema's output is not plain JSON")
  })

  it('a validator that throws or answers nonsense fails the call closed', async () => {
    const weird = (validate: () => unknown) => ({ '~standard': { version: 1, vendor: 'weird', validate, jsonSchema: { input: () => ({ type: 'object' }) } } }) as unknown as StandardSchema
    ctx.tools.register(defineTool({ name: 'a', description: 'x', parameters: weird(() => { throw new Error('broken validator') }), execute: () => 'ran' }))
    ctx.tools.register(defineTool({ name: 'b', description: 'x', parameters: weird(() => 42), execute: () => 'ran' }))
    ctx.tools.register(defineTool({ name: 'c', description: 'x', parameters: weird(async () => ({ issues: [{ message: 'later no' }] })), execute: () => 'ran' }))
    expect(firstText(await ctx.tools.execute(call({}, 'a')))).toContain("the schema's validation failed: broken validator")
    expect(code(await ctx.tools.execute(call({}, 'b')))).toBe(INVALID_ARGS)
    expect(firstText(await ctx.tools.execute(call({}, 'c')))).toBe('Error: invalid arguments for "c": later no')
    // An asynchronous schema cannot classify a call before it runs: exclusive.
    expect(ctx.tools.executionMode(call({}, 'c'))).toBe('exclusive')
  })

  it('a schema without Standard JSON Schema is refused at registration, saying how to fix it', () => {
    const plain = v.object({ path: v.string() })
    expect(() => ctx.tools.register(defineTool({ name: 'p', description: 'x', parameters: plain as never, execute: () => 'x' })))
      .toThrow(ToolDefinitionError)
    expect(() => ctx.tools.register(defineTool({ name: 'p', description: 'x', parameters: plain as never, execute: () => 'x' })))
      .toThrow(/toStandardJsonSchema\(\) from @valibot\/to-json-schema/)
  })
})
