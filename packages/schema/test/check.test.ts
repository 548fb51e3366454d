/**
 * A schema of either kind becomes one check with model-readable lines: ajv's errors rendered
 * short and capped, a Standard Schema's issues in the same shape with its output as the value.
 * That ajv loads only at the first JSON Schema compile is guarded where it matters, by the
 * CLI's `startup-modules.test.ts` (`rein chains` loads no ajv).
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { capLines, checkOf, SchemaCompiler, type SchemaCompile } from '../src/index.js'

const object = { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer' } }, required: ['path'], additionalProperties: false }

describe('checkOf', () => {
  it('a JSON Schema answers ajv\'s errors as short lines, and a valid value as ok', () => {
    const check = checkOf(object, new SchemaCompiler())
    expect(check({ path: 'a', limit: 2 })).toEqual({ ok: true })
    expect(check({ limit: 1.5, extra: 1 })).toEqual({
      ok: false, lines: ['missing required property "path"', 'unknown property "extra"', '/limit: must be integer'],
    })
  })

  it('a Standard Schema validates itself: its issues as lines, its output as the value', () => {
    const check = checkOf(z.object({ path: z.string(), limit: z.number().default(10) }), new SchemaCompiler())
    expect(check({ path: 'a' })).toEqual({ ok: true, value: { path: 'a', limit: 10 } })
    const refused = check({ path: 3 })
    expect(refused).toMatchObject({ ok: false })
    expect((refused as { lines: string[] }).lines[0]).toMatch(/^\/path: /)
  })

  it('an invalid JSON Schema throws ajv\'s own message when it is compiled', () => {
    expect(() => checkOf({ type: 'no-such-type' }, new SchemaCompiler())).toThrow(/type/)
  })

  it('compiles a copy: changing the schema afterwards changes nothing', () => {
    const schema = { type: 'object', required: ['a'] } as { type: string, required: string[] }
    const check = checkOf(schema, new SchemaCompiler())
    schema.required = ['b']
    expect(check({ a: 1 })).toEqual({ ok: true })
  })

  it('compiles as the SchemaCompile says: a deferred compiler compiles on first use only', () => {
    let compiled = 0
    const deferred: SchemaCompile = (schema, compile) => {
      let validate: ((value: unknown) => string[] | undefined) | undefined
      return (value) => (validate ??= (compiled++, compile(schema)))(value)
    }
    const check = checkOf(object, new SchemaCompiler(deferred))
    expect(compiled).toBe(0)
    expect(check({ path: 'a' })).toEqual({ ok: true })
    check({ path: 'b' })
    expect(compiled).toBe(1)
  })
})

describe('capLines', () => {
  it('keeps five distinct lines and says how many more there were', () => {
    expect(capLines(['a', 'a', 'b', 'c', 'd', 'e', 'f', 'g'])).toEqual(['a', 'b', 'c', 'd', 'e', '...and 2 more'])
  })
})

