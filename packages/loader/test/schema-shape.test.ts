/**
 * The structural check that lets a schema compile on first use (`schema-shape.ts`) must never
 * vouch for a schema ajv refuses: every schema it passes is compiled here by the kernel's own
 * ajv compile, from a corpus of tricky cases and from random schemas. The other way round
 * (refusing one ajv accepts) only costs time: such a schema is compiled at registration.
 */
import { createRequire } from 'node:module'
import { Context } from 'cordis'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import * as kernel from '@rein/kernel'
import { defineTool, type Validator } from '@rein/kernel'
import { certainlyCompiles, KEYWORDS, KNOWN_FORMATS } from '../src/schema-shape.js'

/** The kernel's own ajv compile, as it hands it to `compileSchema`. */
let kernelCompile: (schema: object) => Validator
beforeAll(async () => {
  const ctx = new Context()
  ctx.plugin(kernel, { compileSchema: (schema, compile) => (kernelCompile = compile)(schema) })
  await ctx.start()
  ctx.tools.register(defineTool({ name: 't', description: '', parameters: { type: 'object' }, execute: () => null }))
})

const compiles = (schema: object): boolean => {
  try {
    kernelCompile(structuredClone(schema))
    return true
  } catch {
    return false
  }
}

const D2020 = 'https://json-schema.org/draft/2020-12/schema'

/** Schemas tools really use: the check must vouch for these, or laziness buys nothing. */
const EVERYDAY: object[] = [
  { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
  { type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 100 }, tags: { type: 'array', items: { type: 'string' }, uniqueItems: true } } },
  { type: 'object', properties: { mode: { enum: ['a', 'b'] }, at: { type: 'string', format: 'date-time' }, re: { type: 'string', pattern: '^[a-z]+$' } } },
  { type: 'object', properties: { x: { anyOf: [{ type: 'string' }, { type: 'null' }] }, y: { oneOf: [{ const: 1 }, { const: 2 }] } } },
  { type: 'object', properties: { node: { $ref: '#/definitions/node' } }, definitions: { node: { type: 'object', properties: { next: { $ref: '#/definitions/node' } } } } },
  { $schema: D2020, type: 'object', properties: { list: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'number' } }, more: { $ref: '#/$defs/more' } }, $defs: { more: true } },
  { type: 'object', properties: { a: { type: ['string', 'number'], description: 'either', default: 'x', examples: ['x', 1] } }, patternProperties: { '^x-': {} }, propertyNames: { maxLength: 20 } },
  { type: 'object', if: { properties: { a: { const: 1 } } }, then: { required: ['b'] }, else: { not: { required: ['b'] } }, dependencies: { a: ['c'], d: { required: ['e'] } } },
  { type: 'string', minLength: 1, maxLength: 10, contentMediaType: 'text/plain', 'x-extension': { anything: [1, 'two'] } },
  { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false, minItems: 1, contains: { type: 'string' } },
] as object[]

/** Schemas ajv refuses: the check must not vouch for any of them. */
const INVALID: object[] = [
  { type: 'intgr' }, { type: [] }, { type: ['string', 'string'] }, { minimum: '1' }, { maxLength: -1 }, { maxLength: 1.5 },
  { multipleOf: 0 }, { pattern: '(' }, { pattern: 'a\\Z' }, { enum: [] }, { enum: [1, 1] },
  { enum: [{ a: 1, b: 2 }, { b: 2, a: 1 }] }, { required: ['a', 'a'] }, { required: 'a' }, { properties: { a: 1 } }, { items: 3 },
  { allOf: [] }, { anyOf: {} }, { if: 3 }, { $ref: '#/definitions/missing' },
  { id: 'x' }, { nullable: true }, { type: 'null', nullable: false }, { $comment: 3 }, { title: 3 }, { examples: 3 }, { readOnly: 3 },
  { dependencies: { a: 3 } }, { dependencies: { a: ['b', 'b'] } }, { $schema: 'http://json-schema.org/draft-04/schema#' },
  { $schema: D2020, items: [{ type: 'string' }] },
  { $id: 'x', definitions: { a: { $id: 'x' } } }, { $ref: 'https://example.com/nowhere.json' }, { $schema: D2020, $dynamicRef: 'nope' },
  { $schema: D2020, dependentRequired: { a: [1] } }, { $schema: D2020, minContains: -1, contains: {} },
  { type: 'object', 'x-meta': { nested: { $anchor: '^not an anchor' } } }, { 'x-a': { $id: '#same' }, 'x-b': { $id: '#same', type: 'string' } },
  true, // the kernel refuses a boolean schema at the root (ajv cannot remove it from its cache)
] as unknown as object[]

describe('the structural schema check', () => {
  it('knows every keyword ajv knows, in both dialects (the rest ajv ignores under strict: false)', () => {
    // ajv as the kernel loads it, through @rein/schema (the loader does not depend on ajv itself).
    const kernel = createRequire(createRequire(import.meta.url).resolve('@rein/kernel'))
    const require = createRequire(kernel.resolve('@rein/schema'))
    const { Ajv } = require('ajv') as { Ajv: new (o: object) => { RULES: { all: Record<string, unknown> } } }
    const { Ajv2020 } = require('ajv/dist/2020.js') as { Ajv2020: new (o: object) => { RULES: { all: Record<string, unknown> } } }
    for (const ajv of [new Ajv({ strict: false }), new Ajv2020({ strict: false })]) {
      for (const keyword of Object.keys(ajv.RULES.all)) expect(Object.hasOwn(KEYWORDS, keyword), keyword).toBe(true)
    }
  })

  it('vouches for the schemas tools really use, and each compiles', () => {
    for (const schema of EVERYDAY) {
      expect(certainlyCompiles(structuredClone(schema)), JSON.stringify(schema)).toBe(true)
      expect(compiles(schema), JSON.stringify(schema)).toBe(true)
    }
  })

  it('never vouches for a schema ajv refuses', () => {
    for (const schema of INVALID) {
      expect(compiles(schema), `ajv should refuse ${JSON.stringify(schema)}`).toBe(false)
      expect(certainlyCompiles(structuredClone(schema)), JSON.stringify(schema)).toBe(false)
    }
  })

  it('leaves to ajv what it cannot vouch for, even when valid: $id, nullable, unknown formats, values that are not JSON', () => {
    for (const schema of [{ type: 'object', patternProperties: { '(': {} } }, { $ref: '#/properties', properties: {} }, { properties: { a: { $schema: D2020 } } },{ $id: 'https://example.com/a.json', type: 'object' }, { type: 'string', nullable: true },
      { type: 'string', format: 'made-up' }, { type: 'string', default: undefined }, { type: 'number', const: Number.NaN }]) {
      expect(certainlyCompiles(schema), JSON.stringify(schema)).toBe(false)
    }
  })

  it('whatever it vouches for compiles (random schemas, often wrong)', () => {
    const value: fc.Arbitrary<unknown> = fc.oneof(
      fc.constantFrom(0, 1, -1, 1.5, 'string', 'integer', 'null', 'date', 'made-up', '(', '^a$', 'a\\Z', '#', '#/properties/a',
        '#/definitions/d', '#/nowhere', 'https://x.test/s', true, false, null),
      fc.constantFrom([], ['a'], ['a', 'a'], ['string', 'null'], [1, 1], [{}], [true, {}], {}, { a: {} }, { a: 1 }, { '(': {} }, { a: ['b'] }),
    )
    const keywords = [...Object.keys(KEYWORDS), 'x-extra', 'unknownKeyword']
    const schema: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
      node: fc.dictionary(fc.constantFrom(...keywords), fc.oneof({ depthSize: 'small' }, value, tie('node'), fc.array(tie('node'), { maxLength: 2 }),
        fc.dictionary(fc.constantFrom('a', 'd', '^x'), tie('node'), { maxKeys: 2 })), { maxKeys: 4 }),
    })).node as fc.Arbitrary<Record<string, unknown>>
    const withDialect = fc.tuple(schema, fc.constantFrom(undefined, D2020, 'http://json-schema.org/draft-07/schema#'))
      .map(([s, dialect]) => (dialect ? { ...s, $schema: dialect } : s))
    let vouched = 0
    fc.assert(fc.property(withDialect, (s) => {
      if (!certainlyCompiles(structuredClone(s))) return
      vouched++
      expect(compiles(s), JSON.stringify(s)).toBe(true)
    }), { numRuns: 3000 })
    expect(vouched).toBeGreaterThan(100)
  })

  it('every format it vouches for is one ajv-formats defines', () => {
    for (const format of KNOWN_FORMATS) expect(compiles({ type: 'string', format }), format).toBe(true)
  })
})
