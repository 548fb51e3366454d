/**
 * `compileSimpleFirst` (what the loader gives the kernel for a harness that runs) answers
 * "valid" for simple schemas without ajv. It must never accept a value ajv rejects: every
 * value it accepts is checked here against the kernel's own ajv compile, from hostile cases
 * and from random schemas and values. A value it is unsure of goes to ajv, which is compiled
 * once and words the rejection exactly as it always did.
 */
import { Context } from 'cordis'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import * as kernel from '@rein/kernel'
import { defineTool, ToolDefinitionError, type SchemaCompile, type ToolDefinition, type ToolExecutionResult, type Validator } from '@rein/kernel'
import { acceptorOf, compileSimpleFirst } from '../src/simple-schema.js'
import { certainlyCompiles } from '../src/schema-shape.js'

/** The kernel's own ajv compile, as it hands it to `compileSchema`. */
let kernelCompile: (schema: object) => Validator
beforeAll(async () => {
  const ctx = new Context()
  ctx.plugin(kernel, { compileSchema: (schema, compile) => (kernelCompile = compile)(schema) })
  await ctx.start()
  ctx.tools.register(defineTool({ name: 't', description: '', parameters: { type: 'object' }, execute: () => null }))
})

/** A started kernel whose schemas go through `how`, and how many times ajv compiled one. */
async function kernelWith(how: SchemaCompile = compileSimpleFirst) {
  const compiled = { count: 0 }
  const ctx = new Context()
  ctx.plugin(kernel, { compileSchema: (schema, compile) => how(schema, (own) => { compiled.count++; return compile(own) }) })
  await ctx.start()
  return { ctx, compiled }
}

const readTool = (overrides: Partial<ToolDefinition> = {}) => defineTool({
  name: 'read',
  description: 'Read a file.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', minLength: 1 }, line: { type: 'integer', minimum: 1 }, mode: { enum: ['text', 'bytes'] } },
    required: ['path'],
    additionalProperties: false,
  },
  output: { schema: { type: 'string' } },
  execute: (args: { path: string }) => args.path,
  ...overrides,
})
const call = (args: unknown) => ({ id: 'call_1', name: 'read', arguments: args })
const outcome = (result: ToolExecutionResult) => result.isError ? result.error : 'OK'

/** The acceptor of a schema the shape check vouches for (the only ones `compileSimpleFirst` takes). */
function acceptor(schema: object) {
  expect(certainlyCompiles(structuredClone(schema)), JSON.stringify(schema)).toBe(true)
  return acceptorOf(structuredClone(schema))
}

/** Asserts the one-sided promise for one schema and value: accepted here means accepted by ajv. */
function agreesWithAjv(schema: object, value: unknown): boolean {
  const accept = acceptorOf(structuredClone(schema))
  if (accept === undefined || !accept(value)) return false
  expect(kernelCompile(structuredClone(schema))(value), `${JSON.stringify(schema)} accepted ${JSON.stringify(value)}`).toBeUndefined()
  return true
}

describe('compileSimpleFirst through the kernel', () => {
  it('valid calls compile nothing; the first invalid one compiles ajv once and gets ajv\'s lines', async () => {
    const { ctx, compiled } = await kernelWith()
    ctx.tools.register(readTool())
    expect(outcome(await ctx.tools.execute(call({ path: 'a', line: 3, mode: 'text' })))).toBe('OK')
    expect(outcome(await ctx.tools.execute(call({ path: 'b' })))).toBe('OK')
    expect(compiled.count).toBe(0)
    const refused = outcome(await ctx.tools.execute(call({ path: '', line: 0, extra: true })))
    expect(refused).toMatchObject({ info: { code: 'INVALID_ARGS' } })
    const lines = (refused as Error).message
    expect(lines).toContain('unknown property "extra"')
    expect(lines).toContain('/path: must NOT have fewer than 1 characters')
    expect(lines).toContain('/line: must be >= 1')
    expect(compiled.count).toBe(1)
    expect(outcome(await ctx.tools.execute(call({ path: 'c', mode: 'lines' })))).toMatchObject({ info: { code: 'INVALID_ARGS' } })
    expect(compiled.count).toBe(1)
  })

  it('a tool\'s output is checked the same way', async () => {
    const { ctx, compiled } = await kernelWith()
    ctx.tools.register(readTool({ execute: (args: { path: string }) => (args.path === 'n' ? 1 : args.path) as string }))
    expect(outcome(await ctx.tools.execute(call({ path: 'a' })))).toBe('OK')
    expect(compiled.count).toBe(0)
    expect(outcome(await ctx.tools.execute(call({ path: 'n' })))).toMatchObject({ info: { code: 'INVALID_TOOL_OUTPUT' } })
    expect(compiled.count).toBe(1)
  })

  it('a schema outside the subset is compiled by ajv at register, as without it', async () => {
    const { ctx, compiled } = await kernelWith()
    const parameters = { type: 'object', properties: { path: { anyOf: [{ type: 'string' }, { type: 'null' }] } } }
    ctx.tools.register(readTool({ parameters, output: { schema: {} } }))
    expect(compiled.count).toBe(1)
    expect(outcome(await ctx.tools.execute(call({ path: null })))).toBe('OK')
  })

  it('an invalid schema still fails at register with ajv\'s reason', async () => {
    const { ctx } = await kernelWith()
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: 'object', properties: { n: { type: 'intgr' } } }, /must be equal to one of the allowed values/],
      [{ type: 'object', properties: { s: { type: 'string', pattern: '(' } } }, /Invalid regular expression/],
      [{ type: 'object', properties: { e: { enum: [] } } }, /must NOT have fewer than 1 items/],
      [{ type: 'object', required: ['a', 'a'] }, /must NOT have duplicate items/],
    ]
    for (const [parameters, reason] of cases) {
      const attempt = () => ctx.tools.register(readTool({ parameters }))
      expect(attempt).toThrow(ToolDefinitionError)
      expect(attempt).toThrow(reason)
    }
  })

  it('a schema ajv refuses after the checks let it through answers every value with the reason', () => {
    const validate = compileSimpleFirst({ type: 'object', required: ['a'] }, () => { throw new Error('a gap in the check') })
    expect(validate({ a: 1 })).toBeUndefined()
    expect(validate({})).toEqual(["the schema could not be compiled (a gap in the check); the tool's author must fix it"])
  })
})

describe('acceptorOf', () => {
  it('takes the simple subset and leaves every other ajv keyword to ajv', () => {
    expect(acceptor({ type: 'object', properties: { a: { type: ['string', 'null'], maxLength: 3, description: 'x' } }, 'x-vendor': { any: 1 } })).toBeTypeOf('function')
    for (const schema of [
      { type: 'object', properties: { a: { format: 'email' } } }, { anyOf: [{ type: 'string' }] }, { type: 'array', uniqueItems: true },
      { type: 'object', patternProperties: { '^x': {} } }, { enum: [{ a: 1 }] }, { const: [1] }, { type: 'array', items: [{}] },
      { type: 'object', properties: { a: false } }, { type: 'number', multipleOf: 2 },
    ]) expect(acceptor(schema), JSON.stringify(schema)).toBeUndefined()
  })

  it('hostile values: inherited names, own __proto__, surrogates, non-JSON numbers', () => {
    const cases: [object, unknown][] = [
      [{ type: 'object', properties: { constructor: { type: 'string' } } }, {}],
      [{ type: 'object', properties: { toString: { type: 'string' } }, required: ['toString'] }, {}],
      [{ type: 'object', required: ['constructor'] }, {}],
      [{ type: 'object', additionalProperties: false }, JSON.parse('{"__proto__": 1}')],
      [{ type: 'object', properties: { a: {} }, additionalProperties: false }, Object.create({ inherited: 1 })],
      [{ type: 'object', additionalProperties: { type: 'number' } }, JSON.parse('{"__proto__": "x"}')],
      [{ type: 'string', maxLength: 1 }, '\u{1F600}'],
      [{ type: 'string', minLength: 2 }, '\u{1F600}'],
      [{ type: 'string', maxLength: 1 }, '\uD83D'],
      [{ type: 'string', maxLength: 1 }, '\uDE00\uD83D'],
      [{ type: 'integer' }, Infinity], [{ type: 'number', minimum: 0 }, NaN], [{ type: 'number', maximum: 0 }, -0],
      [{ enum: [0] }, -0], [{ const: null }, null], [{ type: 'object' }, []], [{ type: 'array' }, { length: 0 }],
      [{ type: 'string', pattern: '^\\p{L}+$' }, 'é'], [{ type: 'string', pattern: '^.$' }, '\u{1F600}'],
      [{ type: 'array', items: { type: 'string' } }, [, 'a']], [{ type: 'array', items: { type: 'string' } }, ['a', 'b']],
    ]
    const accepted = cases.filter(([schema, value]) => agreesWithAjv(schema, value))
    // Some the fast path answers itself (each checked against ajv above); the rest went to ajv.
    expect(accepted.length).toBeGreaterThan(5)
    // ajv reads properties through the prototype chain (`data.constructor !== undefined`), and so does this.
    expect(acceptorOf({ type: 'object', required: ['constructor'] })!({})).toBe(true)
    expect(acceptorOf({ type: 'object', additionalProperties: false })!(JSON.parse('{"__proto__": 1}'))).toBe(false)
    expect(acceptorOf({ type: 'object', properties: { a: {} }, additionalProperties: false })!(Object.create({ inherited: 1 }))).toBe(false)
    expect(acceptorOf({ type: 'array', items: { type: 'string' } })!([, 'a'])).toBe(false)
  })

  it('never accepts what ajv rejects, for random simple schemas and values', () => {
    const keys = ['a', 'b', 'constructor', 'toString', '__proto__']
    const number = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, -0.5, 1e21, -0, Infinity, NaN))
    const text = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('', '\u{1F600}', '\uD83D', 'ab\u{1F600}', 'é'))
    const schema = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('object'), tie('array')),
      leaf: fc.record({
        type: fc.constantFrom('string', 'number', 'integer', 'boolean', 'null', 'array', 'object'),
        minimum: fc.integer({ min: -2, max: 2 }), exclusiveMaximum: fc.integer({ min: -2, max: 2 }),
        minLength: fc.nat(3), maxLength: fc.nat(3), pattern: fc.constantFrom('^a', 'b$', '^.$'),
        enum: fc.uniqueArray(fc.oneof(number.filter(Number.isFinite), text, fc.boolean(), fc.constant(null)),
          { minLength: 1, maxLength: 3, comparator: (x, y) => Object.is(x, y) || (x === 0 && y === 0) }),
        description: fc.string(),
      }, { requiredKeys: [] }),
      object: fc.record({
        type: fc.constantFrom('object', ['object', 'null']),
        properties: fc.dictionary(fc.constantFrom(...keys.filter((k) => k !== '__proto__')), tie('node'), { maxKeys: 3 }),
        required: fc.uniqueArray(fc.constantFrom(...keys.filter((k) => k !== '__proto__')), { maxLength: 2 }),
        additionalProperties: fc.oneof(fc.boolean(), tie('node')),
      }, { requiredKeys: [] }),
      array: fc.record({ type: fc.constant('array'), items: tie('node'), minItems: fc.nat(2), maxItems: fc.nat(3) }, { requiredKeys: [] }),
    })).node
    const value = fc.letrec((tie) => ({
      any: fc.oneof({ depthSize: 'small' }, number, text, fc.boolean(), fc.constant(null), tie('list'), tie('map')),
      list: fc.array(tie('any'), { maxLength: 3 }),
      map: fc.array(fc.tuple(fc.constantFrom(...keys), tie('any')), { maxLength: 3 }).map((pairs) => {
        const object: Record<string, unknown> = {}
        for (const [key, item] of pairs) Object.defineProperty(object, key, { value: item, enumerable: true, writable: true, configurable: true })
        return object
      }),
    })).any
    let accepted = 0
    fc.assert(fc.property(schema, fc.array(value, { minLength: 1, maxLength: 8 }), (generated, values) => {
      const clean = structuredClone(generated) as object
      fc.pre(certainlyCompiles(clean))
      for (const item of values) if (agreesWithAjv(clean, item)) accepted++
    }), { numRuns: 400 })
    // The property is not vacuous: the fast path accepted many values.
    expect(accepted).toBeGreaterThan(100)
  })
})
