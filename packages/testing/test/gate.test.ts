import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { createGate, echoTool, ignoresSignalTool, sleepTool } from '../src/index.js'

async function harness() {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  return ctx
}

describe('createGate', () => {
  it('holds bodies until released by id and records start order, finish order and peak', async () => {
    const ctx = await harness()
    const gate = createGate()
    ctx.tools.register(gate.tool('read'))
    const a = ctx.tools.execute({ id: 'a', name: 'read', arguments: {} })
    const b = ctx.tools.execute({ id: 'b', name: 'read', arguments: {} })
    await gate.whenRunning(2)
    gate.release('b', { n: 2 })
    expect(await b).toMatchObject({ isError: false, value: { n: 2 } })
    gate.release('a')
    expect(await a).toMatchObject({ isError: false, value: 'result of a' })
    expect(gate.started).toEqual(['a', 'b'])
    expect(gate.finished).toEqual(['b', 'a'])
    expect(gate.peak).toBe(2)
    expect(gate.running).toBe(0)
  })

  it('accepts a release before the body starts, and fails a call with a code', async () => {
    const ctx = await harness()
    const gate = createGate()
    ctx.tools.register(gate.tool('read'))
    gate.release('early', 7)
    expect(await ctx.tools.execute({ id: 'early', name: 'read', arguments: {} })).toMatchObject({ value: 7 })
    gate.fail('bad', 'disk on fire', 'EIO')
    const failed = await ctx.tools.execute({ id: 'bad', name: 'read', arguments: {} })
    expect(failed.isError && failed.error).toMatchObject({ message: 'disk on fire', info: { code: 'EIO' } })
  })

  it('stops on abort, unless told to ignore the signal', async () => {
    const ctx = await harness()
    const gate = createGate()
    ctx.tools.register(gate.tool('polite'))
    ctx.tools.register(gate.tool('deaf', { ignoreSignal: true, safe: false }))
    expect(ctx.tools.executionMode({ id: 'x', name: 'deaf', arguments: {} })).toBe('exclusive')
    const controller = new AbortController()
    const polite = ctx.tools.execute({ id: 'p', name: 'polite', arguments: {} }, { signal: controller.signal })
    const deaf = ctx.tools.execute({ id: 'd', name: 'deaf', arguments: {} }, { signal: controller.signal })
    await gate.whenRunning(2)
    controller.abort()
    expect(await polite).toMatchObject({ isError: true, error: { info: { code: kernel.ABORTED } } })
    expect(gate.running).toBe(1)
    gate.release('d')
    expect(await deaf).toMatchObject({ isError: true, error: { info: { code: kernel.ABORTED } } })
    expect(gate.finished).toEqual(['p', 'd'])
  })
})

describe('tool doubles', () => {
  it('sleep stops when its signal aborts', async () => {
    const ctx = await harness()
    ctx.tools.register(sleepTool())
    let entered!: () => void
    const inBody = new Promise<void>((resolve) => { entered = resolve })
    ctx.plugin({ name: 'spy', inject: ['tools'], apply: (c: Context) => c.on('tools/execute', (_exec, next) => { entered(); return next() }) })
    const controller = new AbortController()
    const slept = ctx.tools.execute({ id: 's', name: 'sleep', arguments: { ms: 60_000 } }, { signal: controller.signal })
    await inBody
    controller.abort()
    expect(await slept).toMatchObject({ isError: true, error: { info: { code: kernel.ABORTED } } })
  })

  it('stubborn finishes its sleep after an abort; its success becomes ABORTED', async () => {
    const ctx = await harness()
    ctx.tools.register(ignoresSignalTool({ safe: false }))
    expect(ctx.tools.executionMode({ id: 'x', name: 'stubborn', arguments: {} })).toBe('exclusive')
    const controller = new AbortController()
    let finished = false
    const run = ctx.tools.execute({ id: 't', name: 'stubborn', arguments: { ms: 5 } }, { signal: controller.signal })
      .finally(() => { finished = true })
    await new Promise((resolve) => setImmediate(resolve))
    controller.abort()
    await Promise.resolve()
    expect(finished).toBe(false)
    expect(await run).toMatchObject({ isError: true, error: { info: { code: kernel.ABORTED } } })
  })

  it('echo returns its arguments as the value', async () => {
    const ctx = await harness()
    ctx.tools.register(echoTool())
    expect(await ctx.tools.execute({ id: 'e', name: 'echo', arguments: '{"a":[1,2]}' })).toMatchObject({ value: { a: [1, 2] } })
  })
})

describe('createGate with repeated ids', () => {
  it('releases bodies with the same id one per release, first started first', async () => {
    const ctx = await harness()
    const gate = createGate()
    ctx.tools.register(gate.tool('read'))
    const first = ctx.tools.execute({ id: 'x', name: 'read', arguments: { n: 1 } })
    const second = ctx.tools.execute({ id: 'x', name: 'read', arguments: { n: 2 } })
    await gate.whenRunning(2)
    gate.release('x', 'one')
    expect(await first).toMatchObject({ value: 'one' })
    gate.release('x', 'two')
    expect(await second).toMatchObject({ value: 'two' })
  })
})
