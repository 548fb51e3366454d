import type { Context } from 'cordis'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { INVALID_ARGS, MAX_ARGUMENT_DEPTH, PIPELINE_FAILED, TOOL_DENIED, TOOL_FAILED, defineTool, readArguments } from '../src/index.js'
import { parsedSnapshot, snapshot } from '../src/json.js'
import { call, code, echoTool, firstText, hostileValues, makeKernel, plug } from './helpers.js'

const hostile = hostileValues()

describe('arguments are own data only', () => {
  let ctx: Context
  let seen: { guard?: unknown, tool?: unknown, inherited?: unknown }
  beforeEach(async () => {
    ctx = await makeKernel()
    seen = {}
    ctx.tools.register(defineTool({
      name: 'bash', description: 'runs a command', parameters: { type: 'object' },
      execute: (args: Record<string, unknown>) => {
        seen.tool = args
        seen.inherited = args.command
        return 'ran'
      },
    }))
    await plug(ctx, 'no-rm', (ctx) => {
      ctx.tools.guard((exec) => {
        seen.guard = exec.arguments
        return String(exec.arguments.command ?? '').startsWith('rm') ? 'rm is denied' : undefined
      })
    })
  })
  afterEach(() => ctx.stop())

  it.each([
    ['a top-level key', '{"__proto__":{"command":"rm -f x"}}', 'arguments may not contain the key "__proto__"'],
    ['a key written with a unicode escape', '{"\\u005f_proto__":{"command":"rm -f x"}}', 'arguments may not contain the key "__proto__"'],
    ['a nested key', '{"opts":{"__proto__":{"force":true}}}', 'arguments may not contain the key "__proto__" (found in /opts)'],
    ['a key inside an array', '{"list":[{"__proto__":{}}]}', 'arguments may not contain the key "__proto__" (found in /list/0)'],
  ])('%s named __proto__ is INVALID_ARGS, and neither a guard nor the tool sees the call', async (_what, raw, problem) => {
    const result = await ctx.tools.execute(call(raw, 'bash'))
    expect(code(result)).toBe(INVALID_ARGS)
    expect(firstText(result)).toBe(`Error: invalid arguments for "bash": ${problem}`)
    expect(seen).toEqual({})
  })

  it('a "constructor" or "prototype" key is plain data that the guard and the tool see alike', async () => {
    const result = await ctx.tools.execute(call('{"constructor":{"x":1},"command":"ls"}', 'bash'))
    expect(code(result)).toBe('OK')
    expect(seen.guard).toBe(seen.tool)
    expect(Object.getPrototypeOf(seen.tool)).toBe(Object.prototype)
    expect(seen.tool).toEqual({ constructor: { x: 1 }, command: 'ls' })
  })

  it('arguments passed as an object whose getter throws are INVALID_ARGS, not a rejection', async () => {
    const args = Object.defineProperty({}, 'command', { enumerable: true, get() { throw new Error('boom') } })
    const result = await ctx.tools.execute(call(args, 'bash'))
    expect(code(result)).toBe(INVALID_ARGS)
    expect(firstText(result)).toContain('boom')
  })

  it('a tool value with a __proto__ key keeps it as data and sets no prototype', async () => {
    ctx.tools.register(defineTool({
      name: 'data', description: 'returns parsed JSON', parameters: { type: 'object' },
      execute: () => JSON.parse('{"__proto__":{"polluted":true},"ok":1}'),
    }))
    const result = await ctx.tools.execute(call({}, 'data'))
    expect(result.isError).toBe(false)
    const value = (result as { value: Record<string, unknown> }).value
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(value.polluted).toBeUndefined()
    expect(Object.keys(value)).toEqual(['__proto__', 'ok'])
  })
})

describe('execute never rejects, whatever a tool or plugin throws or returns', () => {
  let ctx: Context
  beforeEach(async () => {
    ctx = await makeKernel()
  })
  afterEach(() => ctx.stop())

  it.each(Object.keys(hostile))('a tool that throws %s gets an error result, and its sibling its own result', async (kind) => {
    ctx.tools.register(defineTool({ name: 'bad', description: 'throws', parameters: { type: 'object' }, execute: () => { throw hostile[kind]!() } }))
    ctx.tools.register(echoTool())
    const [bad, good] = await Promise.all([ctx.tools.execute(call({}, 'bad', 'a')), ctx.tools.execute(call({ text: 'fine' }, 'echo', 'b'))])
    expect(bad.isError).toBe(true)
    expect(firstText(bad)).toMatch(/^Error: /)
    expect(code(good)).toBe('OK')
  })

  it('an error whose message getter throws keeps its code', async () => {
    ctx.tools.register(defineTool({
      name: 'bad', description: 'throws', parameters: { type: 'object' },
      execute: () => { const e = hostile.throwingMessage!() as Error & { code?: string }; e.code = 'EIO'; throw e },
    }))
    const result = await ctx.tools.execute(call({}, 'bad'))
    expect(code(result)).toBe('EIO')
    expect(firstText(result)).toBe('Error: an error that cannot be printed')
  })

  it.each(Object.keys(hostile))('a tool that returns %s gets one frozen result, an error unless it is plain JSON', async (kind) => {
    ctx.tools.register(defineTool({ name: 'bad', description: 'returns junk', parameters: { type: 'object' }, execute: () => hostile[kind]!() }))
    const result = await ctx.tools.execute(call({}, 'bad'))
    expect(Object.isFrozen(result)).toBe(true)
    const plainJson = kind === 'bareObject' || kind === 'nullProto'
    // A proxy whose `then` cannot be read fails at the await, as a throw would.
    expect(code(result)).toBe(plainJson ? 'OK' : kind.endsWith('Proxy') ? TOOL_FAILED : 'INVALID_TOOL_OUTPUT')
  })

  it.each(['sync', 'async'])('a %s tools/result observer that throws a null-prototype object is contained, and the next observer still sees the result', async (how) => {
    ctx.tools.register(echoTool())
    const later: string[] = []
    await plug(ctx, 'thrower', (ctx) => {
      ctx.on('tools/result', how === 'sync'
        ? () => { throw Object.create(null) }
        : async () => { throw Object.create(null) })
    })
    await plug(ctx, 'watcher', (ctx) => { ctx.on('tools/result', (_e, result) => { later.push(code(result)) }) })
    const result = await ctx.tools.execute(call({ text: 'x' }))
    expect(code(result)).toBe('OK')
    expect(later).toEqual(['OK'])
    // An unhandled rejection would fail this file; give it a turn of the event loop to show.
    await new Promise((resolve) => setImmediate(resolve))
  })

  it('a pre-execute decision that reads "deny" once and "allow" later is a deny: each field is read once', async () => {
    ctx.tools.register(echoTool())
    let reads = 0
    const flipping = new Proxy({}, { get: (_t, key) => key === 'kind' ? (reads++ === 0 ? 'deny' : 'allow') : key === 'reason' ? 'flip' : undefined })
    let ran = false
    ctx.tools.register(echoTool({ name: 'echo2', execute: () => { ran = true; return 'x' } }))
    await plug(ctx, 'flipper', (ctx) => { ctx.on('tools/pre-execute', async () => flipping as never) })
    const result = await ctx.tools.execute(call({ text: 'x' }, 'echo2'))
    expect(code(result)).toBe(TOOL_DENIED)
    expect(ran).toBe(false)
  })

  it('a tools/execute layer returning a result whose isError getter changes is checked once and frozen', async () => {
    let reads = 0
    const shifty = {
      get isError() { return reads++ === 0 ? true : false },
      error: { message: 'it failed' },
      content: [{ type: 'text', text: 'x' }],
    }
    ctx.tools.register(echoTool())
    await plug(ctx, 'shifty', (ctx) => { ctx.on('tools/execute', async () => shifty as never) })
    const result = await ctx.tools.execute(call({ text: 'x' }))
    expect(result.isError).toBe(true)
    expect(firstText(result)).toBe('Error: it failed')
    expect(Object.isFrozen(result)).toBe(true)
  })

  it('a handler throwing a proxy whose traps throw is a PIPELINE_FAILED naming the plugin', async () => {
    ctx.tools.register(echoTool())
    await plug(ctx, 'trapper', (ctx) => { ctx.on('tools/pre-execute', async () => { throw hostile.trappedProxy!() }) })
    const result = await ctx.tools.execute(call({ text: 'x' }))
    expect(code(result)).toBe(PIPELINE_FAILED)
    expect(result.isError && result.error.info).toMatchObject({ name: 'tools/pre-execute', plugin: 'trapper' })
  })

  it('a call object whose getters throw still gets exactly one result', async () => {
    const hostileCall = new Proxy({}, { get() { throw new Error('no') } })
    const result = await ctx.tools.execute(hostileCall as never)
    expect(result.isError).toBe(true)
  })

  it('a body error with a string code keeps it; a thrown string is TOOL_FAILED with its text', async () => {
    ctx.tools.register(defineTool({ name: 's', description: 'throws a string', parameters: { type: 'object' }, execute: () => { throw 'plain text' } }))
    const result = await ctx.tools.execute(call({}, 's'))
    expect(code(result)).toBe(TOOL_FAILED)
    expect(firstText(result)).toBe('Error: plain text')
  })
})

describe('readArguments', () => {
  it('gives what execute would take: a frozen object taken as it is, or undefined for what it refuses', async () => {
    const ctx = await makeKernel()
    const seen: unknown[] = []
    ctx.tools.register(echoTool({ execute: (args: unknown) => { seen.push(args); return 'ok' } }))
    const read = readArguments('{"text":"hi"}')
    expect(Object.isFrozen(read)).toBe(true)
    await ctx.tools.execute({ id: 'a', name: 'echo', arguments: read as never })
    expect(seen[0]).toBe(read)
    const hostile = '{"text":"hi","\\u005f_proto__":{"admin":true}}'
    expect(readArguments(hostile)).toBeUndefined()
    const refused = await ctx.tools.execute({ id: 'b', name: 'echo', arguments: hostile })
    expect(code(refused)).toBe(INVALID_ARGS)
    for (const other of ['{bad', '[1]', '3', { get text() { throw new Error('no') } }]) expect(readArguments(other)).toBeUndefined()
    expect(readArguments({ text: 'copied' })).toEqual({ text: 'copied' })
    await ctx.stop()
  })
})

describe('arguments parsed from text are checked in place', () => {
  /** Whether `value` and everything inside it is frozen. */
  const frozenThrough = (value: unknown): boolean =>
    typeof value !== 'object' || value === null || (Object.isFrozen(value) && Object.values(value).every(frozenThrough))
  // Objects with `__proto__` keys (written as JSON escapes too) and nesting past the limit, beside plain JSON.
  const text = fc.oneof(
    fc.jsonValue().map((value) => JSON.stringify({ value })),
    fc.jsonValue().map((value) => JSON.stringify({ value, list: [{ k: value }] }).replace('"k"', '"__proto__"')),
    fc.jsonValue().map((value) => JSON.stringify({ a: [value] }).replace('"a"', '"\\u005f_proto__"')),
    fc.integer({ min: MAX_ARGUMENT_DEPTH - 2, max: MAX_ARGUMENT_DEPTH + 2 }).map((n) => `{"x":${'['.repeat(n)}${']'.repeat(n)}}`),
  )

  it('answers what a copy would: the same problem, or the same value, frozen all the way down', () => {
    fc.assert(fc.property(text, (raw) => {
      const copied = snapshot(JSON.parse(raw), { arguments: true })
      const parsed = JSON.parse(raw)
      const inPlace = parsedSnapshot(parsed)
      expect(inPlace.ok).toBe(copied.ok)
      if (!inPlace.ok || !copied.ok) {
        expect(inPlace).toEqual(copied)
      } else {
        expect(inPlace.value).toBe(parsed)
        expect(JSON.stringify(inPlace.value)).toBe(JSON.stringify(copied.value))
        expect(frozenThrough(inPlace.value)).toBe(true)
      }
    }), { numRuns: 300 })
  })
})
