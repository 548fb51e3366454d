import { describe, expect, it } from 'vitest'
import { withoutPatterns } from '../src/schema.js'

describe('withoutPatterns', () => {
  it('drops pattern at every depth, in every place a schema can sit', () => {
    const p = { type: 'string', pattern: '^(a+)+$' }
    const s = { type: 'string' }
    const schema = {
      type: 'object',
      properties: { a: p, b: { type: 'array', items: p, prefixItems: [p], contains: p } },
      additionalProperties: p,
      propertyNames: { pattern: '^(a+)+$', maxLength: 9 },
      anyOf: [p], allOf: [{ not: p }], oneOf: [{ if: p, then: p, else: p }],
      $defs: { x: p }, definitions: { y: p },
      dependentSchemas: { a: { properties: { c: p } } },
      dependencies: { a: ['b'], b: { properties: { d: p } } },
    }
    expect(withoutPatterns(schema)).toEqual({
      type: 'object',
      properties: { a: s, b: { type: 'array', items: s, prefixItems: [s], contains: s } },
      additionalProperties: s,
      propertyNames: { maxLength: 9 },
      anyOf: [s], allOf: [{ not: s }], oneOf: [{ if: s, then: s, else: s }],
      $defs: { x: s }, definitions: { y: s },
      dependentSchemas: { a: { properties: { c: s } } },
      dependencies: { a: ['b'], b: { properties: { d: s } } },
    })
    expect(schema.properties.a.pattern).toBe('^(a+)+$')
  })

  it('drops patternProperties with the additionalProperties beside it, so that its names stay allowed', () => {
    expect(withoutPatterns({
      type: 'object',
      properties: { n: { type: 'number' } },
      patternProperties: { '^x': { type: 'string' } },
      additionalProperties: false,
      unevaluatedProperties: false,
      items: { additionalProperties: false },
    })).toEqual({ type: 'object', properties: { n: { type: 'number' } }, items: { additionalProperties: false } })
  })

  it('keeps property names and data that look like keywords', () => {
    const schema = JSON.parse(`{
      "type": "object",
      "properties": { "pattern": { "type": "string" }, "patternProperties": {}, "__proto__": { "type": "number" } },
      "const": { "pattern": "x" }, "enum": [{ "pattern": "y" }], "default": { "pattern": "z" }, "examples": [{ "pattern": "w" }]
    }`)
    const safe = withoutPatterns(schema)
    expect(safe).toEqual(schema)
    expect(Object.keys(safe.properties)).toEqual(['pattern', 'patternProperties', '__proto__'])
    expect(Object.getPrototypeOf(safe.properties)).toBe(Object.prototype)
  })

  it('drops a $ref that points anywhere but at a schema it strips, where a pattern could hide', () => {
    const evil = { type: 'string', pattern: '^(a+)+$' }
    const schema = {
      type: 'object',
      properties: {
        hidden: { $ref: '#/x-hidden/evil' }, data: { $ref: '#/default/evil' }, named: { $ref: '#/patternProperties/%5Ex' },
        escaped: { $ref: '#/x~1hidden' }, bad: { $ref: '#/%E0%A4%A' }, deep: { $dynamicRef: '#/properties/s/pattern' },
        kept: { $ref: '#/$defs/s' }, item: { $ref: '#/properties/list/items/0' }, root: { $ref: '#/' }, anchor: { $ref: '#name' },
        list: { type: 'array', items: [{ type: 'number' }] }, s: { type: 'string' },
      },
      'x-hidden': { evil }, 'x/hidden': evil, default: { evil }, patternProperties: { '^x': evil }, $defs: { s: evil },
    }
    const safe = withoutPatterns(schema) as { properties: Record<string, object>, $defs: object }
    for (const name of ['hidden', 'data', 'named', 'escaped', 'bad', 'deep']) expect([name, safe.properties[name]]).toEqual([name, {}])
    expect(safe.properties.kept).toEqual({ $ref: '#/$defs/s' })
    expect(safe.properties.item).toEqual({ $ref: '#/properties/list/items/0' })
    expect(safe.properties.anchor).toEqual({ $ref: '#name' })
    expect(safe.$defs).toEqual({ s: { type: 'string' } })
  })

  it('leaves boolean schemas and odd values as they are', () => {
    expect(withoutPatterns({ items: true, not: false, anyOf: 'odd', properties: null })).toEqual(
      { items: true, not: false, anyOf: 'odd', properties: null })
  })
})
