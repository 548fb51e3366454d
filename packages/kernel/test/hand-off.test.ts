import { Logger } from 'cordis'
import { describe, expect, it } from 'vitest'
import { ABORTED, HOOKS, defineTool } from '../src/index.js'
import { call, code, deferred, echoTool, firstText, makeKernel, plug } from './helpers.js'

/**
 * The kernel's warnings while `capture` is on (the kernel logs as `tools`). Not @rein/testing's
 * `captureWarnings`: that package depends on the kernel.
 */
function captureWarnings() {
  const warnings: string[] = []
  const target: Logger.Target = { colors: 0, record: (record) => { if (record.type === 'warn' && record.name === 'tools') warnings.push(record.content) } }
  Logger.targets.push(target)
  return { warnings, stop: () => { Logger.targets.splice(Logger.targets.indexOf(target), 1) } }
}

/** Whether `promise` has settled once every microtask and tick queued so far has run. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false
  promise.then(() => { settled = true }, () => { settled = true })
  await new Promise((resolve) => setImmediate(resolve))
  return settled
}

describe('tools/hand-off', () => {
  it('is a hold in the hook table, after the observers', () => {
    expect(HOOKS['tools/hand-off']).toEqual({ kind: 'hold' })
    expect(Object.keys(HOOKS).slice(-2)).toEqual(['tools/result', 'tools/hand-off'])
  })

  it('holds the result from its caller until the promise it returned settles; the observers saw it first', async () => {
    const ctx = await makeKernel()
    ctx.tools.register(echoTool())
    const log: string[] = []
    const gate = deferred()
    await plug(ctx, 'watcher', (ctx) => { ctx.on('tools/result', (exec) => { log.push(`observed ${exec.id}`) }) })
    await plug(ctx, 'keeper', (ctx) => {
      ctx.on('tools/hand-off', (exec, result) => {
        log.push(`held ${exec.id} ${code(result)}`)
        return gate.promise
      })
    })
    const pending = ctx.tools.execute(call({ text: 'hi' }))
    expect(await settledYet(pending)).toBe(false)
    expect(log).toEqual(['observed call_1', 'held call_1 OK'])
    gate.resolve()
    expect(firstText(await pending)).toBe('hi')
    expect(ctx.tools.chain('tools/hand-off')).toEqual(['keeper'])
  })

  it('waits for every hold of a call', async () => {
    const ctx = await makeKernel()
    ctx.tools.register(echoTool())
    const first = deferred()
    const second = deferred()
    await plug(ctx, 'one', (ctx) => { ctx.on('tools/hand-off', () => first.promise) })
    await plug(ctx, 'none', (ctx) => { ctx.on('tools/hand-off', () => undefined) })
    await plug(ctx, 'two', (ctx) => { ctx.on('tools/hand-off', () => second.promise) })
    const pending = ctx.tools.execute(call({ text: 'x' }))
    second.resolve()
    expect(await settledYet(pending)).toBe(false)
    first.resolve()
    expect(code(await pending)).toBe('OK')
  })

  it('a hold that throws, rejects or answers a hostile thenable delays nothing more and changes nothing; each is logged', async () => {
    const ctx = await makeKernel()
    const capture = captureWarnings()
    try {
      ctx.tools.register(echoTool())
      const rejected = deferred()
      await plug(ctx, 'thrower', (ctx) => { ctx.on('tools/hand-off', () => { throw new Error('disk gone') }) })
      await plug(ctx, 'rejecter', (ctx) => { ctx.on('tools/hand-off', () => rejected.promise) })
      await plug(ctx, 'hostile', (ctx) => {
        ctx.on('tools/hand-off', () => Object.defineProperty({}, 'then', { get() { throw new Error('trap') } }) as never)
      })
      const pending = ctx.tools.execute(call({ text: 'kept' }))
      expect(await settledYet(pending)).toBe(false)
      rejected.reject(new Error('write failed'))
      const result = await pending
      expect(code(result)).toBe('OK')
      expect(firstText(result)).toBe('kept')
      expect(Object.isFrozen(result)).toBe(true)
      expect(capture.warnings).toEqual([
        'tools/hand-off handler of plugin "thrower" failed: disk gone',
        'tools/hand-off handler of plugin "rejecter" failed: write failed',
      ])
    } finally {
      capture.stop()
    }
  })

  it('holds a result the kernel settles on its own (an abandoned call) the same way', async () => {
    const ctx = await makeKernel({ abandonAfterMs: 1 })
    const bodyStarted = deferred()
    const never = new Promise<never>(() => {})
    ctx.tools.register(defineTool({
      name: 'stubborn', description: 'ignores aborts', parameters: { type: 'object' },
      execute: async () => { bodyStarted.resolve(); return never },
    }))
    const gate = deferred()
    const held: string[] = []
    await plug(ctx, 'keeper', (ctx) => { ctx.on('tools/hand-off', (_e, result) => { held.push(code(result)); return gate.promise }) })
    const controller = new AbortController()
    const pending = ctx.tools.execute(call({}, 'stubborn'), { signal: controller.signal })
    await bodyStarted.promise
    controller.abort()
    while (held.length === 0) await new Promise((resolve) => setImmediate(resolve))
    expect(held).toEqual([ABORTED])
    expect(await settledYet(pending)).toBe(false)
    gate.resolve()
    expect(code(await pending)).toBe(ABORTED)
  })

  it('a disposed plugin holds nothing more', async () => {
    const ctx = await makeKernel()
    ctx.tools.register(echoTool())
    const fork = await plug(ctx, 'keeper', (ctx) => { ctx.on('tools/hand-off', () => new Promise(() => {})) })
    fork.dispose()
    expect(ctx.tools.chain('tools/hand-off')).toEqual([])
    expect(code(await ctx.tools.execute(call({ text: 'x' })))).toBe('OK')
  })
})
