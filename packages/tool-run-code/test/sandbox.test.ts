import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { addTool, harness, outcome, run } from './helpers.js'

let ctx: Context
beforeAll(async () => { ({ ctx } = await harness({ tools: [addTool] })) })
afterAll(() => ctx.stop())

describe('the sandbox', () => {
  it.each([
    ['process', 'return process.pid', "ReferenceError: 'process' is not defined"],
    ['require', 'return require("node:fs")', "ReferenceError: 'require' is not defined"],
    ['import()', 'return await import("node:fs")', "ReferenceError: could not load module 'node:fs'"],
    ['import', 'import fs from "node:fs"', 'SyntaxError'],
    ['fetch', 'return await fetch("http://localhost")', "ReferenceError: 'fetch' is not defined"],
    ['timers', 'setTimeout(() => {}, 1)', "ReferenceError: 'setTimeout' is not defined"],
    ['the Function constructor', 'return globalThis.constructor.constructor("return process")()', "ReferenceError: 'process' is not defined"],
    ['an async function constructor', 'return (async () => {}).constructor("return process")()', "ReferenceError: 'process' is not defined"],
    ['eval', 'return eval("process")', "ReferenceError: 'process' is not defined"],
    ['console', 'console.log("hi")', "ReferenceError: 'console' is not defined"],
    ['WebAssembly', 'return WebAssembly.Module', "ReferenceError: 'WebAssembly' is not defined"],
  ])('has no %s', async (_what, code, thrown) => {
    const [result, text] = outcome(await run(ctx, code))
    expect(result).toBe('CODE_FAILED')
    expect(text).toContain(`Error: the code threw ${thrown}`)
  })

  it('offers the language and `tools`, and no host function on the global object', async () => {
    const result = await run(ctx, `
      const names = Object.getOwnPropertyNames(globalThis)
      return names.filter((name) => !/^[A-Z]/.test(name) && !['undefined', 'NaN', 'Infinity', 'globalThis'].includes(name)).sort()`)
    expect(outcome(result)).toEqual(['OK', ['decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent',
      'escape', 'eval', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'tools', 'unescape']])
  })

  it('keeps `tools` in place', async () => {
    const result = await run(ctx, 'tools = null\ntry { delete globalThis.tools } catch {}\nreturn await tools.add({ a: 1, b: 1 })')
    expect(outcome(result)).toEqual(['OK', 2])
  })

  it('starts every run from a fresh context', async () => {
    expect(outcome(await run(ctx, 'globalThis.leftover = 1; Object.prototype.polluted = 1; return 1'))).toEqual(['OK', 1])
    expect(outcome(await run(ctx, 'return [typeof leftover, typeof ({}).polluted]'))).toEqual(['OK', ['undefined', 'undefined']])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('is not fooled by changed built-ins when it reads the return value', async () => {
    const result = await run(ctx, `
      JSON.stringify = () => '"forged"'
      Object.keys = () => []
      return { a: [1, 'two', null, true] }`)
    expect(outcome(result)).toEqual(['OK', { a: [1, 'two', null, true] }])
  })
})
