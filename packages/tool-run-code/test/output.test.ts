import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { harness, outcome, run } from './helpers.js'

let ctx: Context
beforeAll(async () => { ({ ctx } = await harness()) })
afterAll(() => ctx.stop())

describe('the return value', () => {
  it('is the tool\'s value, rendered as JSON text', async () => {
    const result = await run(ctx, 'return { total: 3, names: ["a", "b"], nested: { ok: true, none: null } }')
    expect(outcome(result)).toEqual(['OK', { total: 3, names: ['a', 'b'], nested: { ok: true, none: null } }])
    expect(result.content).toEqual([{ type: 'text', text: '{"total":3,"names":["a","b"],"nested":{"ok":true,"none":null}}' }])
  })

  it('is a string as it is', async () => {
    const result = await run(ctx, 'return "plain text"')
    expect(result.content).toEqual([{ type: 'text', text: 'plain text' }])
  })

  it('is null when the code returns nothing', async () => {
    expect(outcome(await run(ctx, 'const x = 1'))).toEqual(['OK', null])
  })

  it.each([
    ['a function', 'return () => 1', 'value: function is not JSON'],
    ['a nested undefined', 'return { a: [1, undefined] }', 'value/a/1: undefined is not JSON'],
    ['NaN', 'return { n: 0 / 0 }', 'value/n: NaN is not a JSON number'],
    ['a Date', 'return { when: new Date(0) }', 'value/when: a Date is not plain JSON; use plain objects, arrays, strings, numbers, booleans and null'],
    ['a Map', 'return new Map()', 'value: a Map is not plain JSON; use plain objects, arrays, strings, numbers, booleans and null'],
    ['a cycle', 'const a = { }; a.self = a; return a', 'value/self: circular reference'],
    ['a bigint', 'return 1n', 'value: bigint is not JSON'],
    ['a symbol', 'return [Symbol("s")]', 'value/0: symbol is not JSON'],
  ])('is INVALID_TOOL_OUTPUT for %s', async (_what, code, problem) => {
    expect(outcome(await run(ctx, code))).toEqual(['INVALID_TOOL_OUTPUT',
      `Error: the code's return value cannot be returned as JSON: TypeError: ${problem}`])
  })

  it('reports an exception with its name, message and the code\'s line', async () => {
    const [code, text] = outcome(await run(ctx, 'const a = 1\nconst b = null\nreturn b.x'))
    expect(code).toBe('CODE_FAILED')
    expect(text).toBe("Error: the code threw TypeError: cannot read property 'x' of null\n    at <anonymous> (run_code.js:3:9)")
  })

  it('reports a syntax error', async () => {
    const [code, text] = outcome(await run(ctx, 'return 1 +'))
    expect(code).toBe('CODE_FAILED')
    expect(text).toMatch(/^Error: the code threw SyntaxError: /)
  })

  it('reports a thrown null as such (not as running out of memory)', async () => {
    expect(outcome(await run(ctx, 'throw null'))).toEqual(['CODE_FAILED', 'Error: the code threw a non-Error value: null'])
  })

  it('reports a thrown non-Error value', async () => {
    expect(outcome(await run(ctx, 'throw { reason: "x" }'))).toEqual(['CODE_FAILED',
      'Error: the code threw a non-Error value: {"reason":"x"}'])
  })
})
