import { Context, Schema } from 'cordis'
import { afterEach, describe, expect, it } from 'vitest'
import * as kernel from '../src/index.js'
import { PIPELINE_FAILED, startupProblemOf } from '../src/index.js'
import { call, code, echoTool, firstText, makeKernel } from './helpers.js'

const closedLine = (plugin: string, reason: string) =>
  `Error: plugin "${plugin}" failed to start: ${reason}; no tool runs until it is fixed or removed`

/** A guard plugin whose config must name what it denies: the careless-config case of §6.1. */
const strictGuard = {
  name: 'strict-guard',
  inject: ['tools'],
  Config: Schema.object({ deny: Schema.string().required() }),
  apply(ctx: Context, config: { deny: string }) {
    ctx.tools.guard((exec) => exec.name === config.deny ? 'denied by strict-guard' : undefined)
  },
}

describe('a harness with a plugin that did not start runs no tool', () => {
  let ctx: Context
  let bodies: number
  const start = async () => {
    ctx = await makeKernel()
    bodies = 0
    ctx.tools.register(echoTool({ execute: (args: { text: string }) => { bodies++; return args.text } }))
  }
  afterEach(() => ctx?.stop())

  it('a rejected config closes it: PIPELINE_FAILED, final, with the plugin and the reason, and no body runs', async () => {
    await start()
    const observed: string[] = []
    ctx.on('tools/result', (_exec, result) => { observed.push(code(result)) })
    const fork = ctx.plugin(strictGuard, {} as never)
    await ctx.start()
    const result = await ctx.tools.execute(call({ text: 'a' }))
    expect(code(result)).toBe(PIPELINE_FAILED)
    expect(firstText(result)).toMatch(/^Error: plugin "strict-guard" failed to start: .*deny.*; no tool runs until it is fixed or removed$/)
    expect(result.isError && result.error.info).toMatchObject({ name: 'startup', plugin: 'strict-guard' })
    expect(bodies).toBe(0)
    expect(observed).toEqual([PIPELINE_FAILED])
    expect(startupProblemOf(fork)).toMatch(/deny/)
  })

  it('an apply that throws closes it, and disposing the plugin lifts it', async () => {
    await start()
    const fork = ctx.plugin({ name: 'broken', inject: ['tools'], apply() { throw new Error('no database') } })
    await ctx.start()
    expect(firstText(await ctx.tools.execute(call({ text: 'a' })))).toBe(closedLine('broken', 'no database'))
    fork.dispose()
    const result = await ctx.tools.execute(call({ text: 'a' }))
    expect(code(result)).toBe('OK')
    expect(bodies).toBe(1)
  })

  it('an async apply that rejects closes it once it has failed', async () => {
    await start()
    ctx.plugin({ name: 'slow-broken', inject: ['tools'], async apply() { await Promise.resolve(); throw new Error('late failure') } })
    await ctx.start()
    expect(firstText(await ctx.tools.execute(call({ text: 'a' })))).toBe(closedLine('slow-broken', 'late failure'))
    expect(bodies).toBe(0)
  })

  it('a required service that no plugin provides closes it, and providing it lifts it', async () => {
    await start()
    ctx.plugin({ name: 'needs-vault', inject: ['tools', 'vault'], apply() {} })
    await ctx.start()
    expect(firstText(await ctx.tools.execute(call({ text: 'a' }))))
      .toBe(closedLine('needs-vault', 'it needs the service "vault", which no plugin provides'))
    ctx.plugin({ name: 'vault', apply(ctx: Context) { ctx.set('vault', { open: true }) } })
    await ctx.start()
    expect(code(await ctx.tools.execute(call({ text: 'a' })))).toBe('OK')
  })

  it('a sibling plugin that failed before the kernel existed closes it too', async () => {
    ctx = new Context()
    ctx.plugin({ name: 'early-broken', apply() { throw new Error('too early') } })
    ctx.plugin(kernel)
    await ctx.start()
    ctx.tools.register(echoTool())
    expect(firstText(await ctx.tools.execute(call({ text: 'a' })))).toBe(closedLine('early-broken', 'too early'))
  })

  it('a failure deep in a plugin tree closes it (a plugin applied by a plugin)', async () => {
    await start()
    ctx.plugin({
      name: 'outer', inject: ['tools'],
      apply(ctx: Context) { ctx.plugin({ name: 'inner', apply() { throw new Error('inner broke') } }) },
    })
    await ctx.start()
    expect(firstText(await ctx.tools.execute(call({ text: 'a' })))).toBe(closedLine('inner', 'inner broke'))
  })

  it('every failed plugin is named, one line each, in registration order', async () => {
    await start()
    ctx.plugin({ name: 'first', inject: ['tools'], apply() { throw new Error('one') } })
    ctx.plugin({ name: 'second', inject: ['tools'], apply() { throw new Error('two') } })
    await ctx.start()
    const result = await ctx.tools.execute(call({ text: 'a' }))
    expect(result.isError && result.error.message).toBe([
      'plugin "first" failed to start: one; no tool runs until it is fixed or removed',
      'plugin "second" failed to start: two; no tool runs until it is fixed or removed',
    ].join('\n'))
    expect(ctx.tools.startupProblems().map((p) => p.plugin)).toEqual(['first', 'second'])
  })

  it('a restart with a valid config lifts it', async () => {
    await start()
    const fork = ctx.plugin(strictGuard, {} as never)
    await ctx.start()
    expect(code(await ctx.tools.execute(call({ text: 'a' })))).toBe(PIPELINE_FAILED)
    fork.update({ deny: 'echo' })
    await ctx.start()
    const result = await ctx.tools.execute(call({ text: 'a' }))
    expect(firstText(result)).toBe('Error: denied by strict-guard')
    expect(bodies).toBe(0)
  })

  it('a healthy harness reports no problems', async () => {
    await start()
    expect(ctx.tools.startupProblems()).toEqual([])
    expect(code(await ctx.tools.execute(call({ text: 'a' })))).toBe('OK')
  })
})
