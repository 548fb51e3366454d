import { describe, expect, it } from 'vitest'
import {
  ABORTED, ABORTED_BEFORE_DISPATCH, DEPENDENCY_MESSAGE_LIMIT, INVALID_ARGS, MAX_ARGUMENT_DEPTH, Messages, PIPELINE_FAILED,
  TOOL_NOT_STARTED, TOOL_TIMEOUT, bodyMayStillRun, deepFreeze, defineTool, failure, readArguments,
} from '../src/index.js'
import { snapshot } from '../src/json.js'
import { code, firstText, makeKernel } from './helpers.js'

/** JSON text of an object whose `a` holds arrays nested so that the deepest lies at level `levels`. */
const nestedText = (levels: number) => `{"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`
/** The same as an object. */
const nested = (levels: number) => JSON.parse(nestedText(levels)) as Record<string, unknown>

const DEPTH = `arguments may not be nested more than ${MAX_ARGUMENT_DEPTH} levels deep`

async function counted() {
  const ctx = await makeKernel()
  const ran: unknown[] = []
  ctx.tools.register(defineTool({
    name: 'take', description: 'records its arguments', parameters: { type: 'object' },
    execute: (args) => { ran.push(args); return 'ran' },
  }))
  return { ctx, ran }
}

describe('model data cannot exhaust the stack', () => {
  it('arguments nested deeper than MAX_ARGUMENT_DEPTH are INVALID_ARGS, as text or as an object; at the limit they run', async () => {
    const { ctx, ran } = await counted()
    for (const args of [nestedText(MAX_ARGUMENT_DEPTH + 1), nested(MAX_ARGUMENT_DEPTH + 1), nestedText(100_000)]) {
      const result = await ctx.tools.execute({ id: 'c', name: 'take', arguments: args as never })
      expect(code(result)).toBe(INVALID_ARGS)
      expect(firstText(result)).toBe(`Error: invalid arguments for "take": ${DEPTH}`)
    }
    expect(ran).toEqual([])
    for (const args of [nestedText(MAX_ARGUMENT_DEPTH), nested(MAX_ARGUMENT_DEPTH)]) {
      expect(code(await ctx.tools.execute({ id: 'c', name: 'take', arguments: args as never }))).toBe('OK')
    }
    expect(ran).toHaveLength(2)
    expect(Object.isFrozen(ran[0])).toBe(true)
    await ctx.stop()
  })

  it('readArguments and settle take arguments of any depth without throwing', async () => {
    const ctx = await makeKernel()
    expect(readArguments(nestedText(100_000))).toBeUndefined() // refused, as execute refuses it
    const settled = await ctx.tools.settle({ id: 'c', name: 'take', arguments: nestedText(100_000) }, TOOL_NOT_STARTED, 'x')
    expect(code(settled)).toBe(TOOL_NOT_STARTED)
    expect(snapshot(nested(100_000), { arguments: true })).toEqual({ ok: false, problem: DEPTH })
    await ctx.stop()
  })

  it('deepFreeze freezes a tree of any depth', () => {
    const deep = nested(100_000)
    expect(deepFreeze(deep)).toBe(deep)
    let unfrozen = 0
    for (let level: unknown = deep.a; Array.isArray(level); level = level[0]) if (!Object.isFrozen(level)) unfrozen++
    expect(unfrozen).toBe(0)
    const cyclic: Record<string, unknown> = { list: [] }
    ;(cyclic.list as unknown[]).push(cyclic)
    expect(Object.isFrozen(deepFreeze(cyclic).list)).toBe(true)
  })
})

describe('arguments that cannot be read', () => {
  it('are INVALID_ARGS, and the tool never runs with {}', async () => {
    const { ctx, ran } = await counted()
    const hostile = { id: 'c', name: 'take', get arguments(): string { throw new Error('getter broke') } }
    const result = await ctx.tools.execute(hostile)
    expect(code(result)).toBe(INVALID_ARGS)
    expect(firstText(result)).toBe('Error: invalid arguments for "take": the arguments could not be read (getter broke)')
    expect(ran).toEqual([])
    await ctx.stop()
  })
})

describe('execute options', () => {
  it('a signal that is not an AbortSignal is final PIPELINE_FAILED naming options.signal, before any body runs', async () => {
    const { ctx, ran } = await counted()
    const call = { id: 'c', name: 'take', arguments: '{}' }
    for (const [signal, kind] of [
      [new AbortController(), 'an AbortController'], [{ aborted: false }, 'a plain object'], ['abort', 'a string'], [null, 'null'],
    ] as const) {
      const result = await ctx.tools.execute(call, { signal: signal as never })
      expect(code(result)).toBe(PIPELINE_FAILED)
      expect(firstText(result)).toBe(`Error: options.signal of execute(call, options) must be an AbortSignal, not ${kind}; the call did not run`)
      expect(result.isError && result.error.info?.name).toBe('options')
    }
    expect(ran).toEqual([])
    await ctx.stop()
  })

  it('options that throw when read settle PIPELINE_FAILED, in execute and in settle, and never reject', async () => {
    const { ctx, ran } = await counted()
    const options = { get signal(): AbortSignal { throw new Error('options broke') } }
    const call = { id: 'c', name: 'take', arguments: '{}' }
    const message = (method: string) => `Error: the options of ${method}(call, options) could not be read (options broke); the call did not run`
    expect(firstText(await ctx.tools.execute(call, options))).toBe(message('execute'))
    expect(firstText(await ctx.tools.settle(call, TOOL_NOT_STARTED, 'x', options))).toBe(message('settle'))
    expect(code(await ctx.tools.settle(call, TOOL_NOT_STARTED, 'x', { signal: new AbortController() as never }))).toBe(PIPELINE_FAILED)
    expect(firstText(await ctx.tools.execute(call, null as never))).toMatch(/^Error: the options of execute\(call, options\) could not be read/)
    expect(ran).toEqual([])
    await ctx.stop()
  })
})

describe('call ids', () => {
  it('a call whose id is not a string is final PIPELINE_FAILED, and its tool never runs', async () => {
    const { ctx, ran } = await counted()
    for (const [id, kind] of [[{ toString() { throw new Error('no') } }, 'a plain object'], [7, 'a number'], [undefined, 'undefined']] as const) {
      const result = await ctx.tools.execute({ id: id as never, name: 'take', arguments: '{}' })
      expect(code(result)).toBe(PIPELINE_FAILED)
      expect(firstText(result)).toBe(`Error: the call's id must be a string, not ${kind}; the call did not run`)
    }
    expect(ran).toEqual([])
    await ctx.stop()
  })
})

describe('DEPENDENCY_FAILED messages', () => {
  it('name the failed dependency, and carry the cause and its message capped', () => {
    expect(Messages.dependencyFailed('a', 'boom')).toBe('depends on a, which failed: boom')
    expect(Messages.dependencyFailed('b', 'boom', 'a')).toBe('depends on b, which failed because a failed: boom')
    const long = Messages.dependencyFailed('a', 'x'.repeat(10_000))
    expect(long).toBe(`depends on a, which failed: ${'x'.repeat(DEPENDENCY_MESSAGE_LIMIT)}... (${10_000 - DEPENDENCY_MESSAGE_LIMIT} more characters)`)
    // never cut inside a surrogate pair
    const emoji = Messages.dependencyFailed('a', `${'x'.repeat(DEPENDENCY_MESSAGE_LIMIT - 1)}😀tail`)
    expect(emoji).toBe(`depends on a, which failed: ${'x'.repeat(DEPENDENCY_MESSAGE_LIMIT - 1)}... (6 more characters)`)
  })
})

describe('the kernel config', () => {
  it('tells a caller the abandon window (abandonAfterMs)', async () => {
    const ctx = await makeKernel({ abandonAfterMs: 37 })
    expect(ctx.tools.abandonAfterMs).toBe(37)
    const defaults = await makeKernel()
    expect(defaults.tools.abandonAfterMs).toBe(1000)
    await ctx.stop()
    await defaults.stop()
  })
})

describe('bodyMayStillRun', () => {
  it('is true only for a result given up on after its body started', () => {
    expect([
      failure(TOOL_TIMEOUT, 'x', 'ToolTimeoutAbandoned'),
      failure(ABORTED, 'x', 'ToolTimeoutAbandoned'),
      failure(ABORTED, 'x', 'Abandoned'),
      failure(ABORTED_BEFORE_DISPATCH, 'x', 'Abandoned'),
      failure(TOOL_TIMEOUT, 'x'),
      failure(ABORTED, 'x'),
      { isError: false, content: [] },
      'ok',
      undefined,
    ].map(bodyMayStillRun)).toEqual([true, true, true, false, false, false, false, false, false])
  })
})
