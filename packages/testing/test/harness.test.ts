/** `withKernel`: a plugin on a real kernel, and who answers its asks (`approve`), or nobody. */
import type { Context } from 'cordis'
import { defineTool, TOOL_DENIED, type PreToolDecision } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { withKernel } from '../src/index.js'

/** Asks about every call of `remove`. */
const asksAboutRemove = {
  name: 'asks-about-remove',
  inject: ['tools'],
  apply(ctx: Context) {
    ctx.on('tools/pre-execute', (exec, next) => exec.name === 'remove'
      ? Promise.resolve<PreToolDecision>({ kind: 'ask', reason: 'remove deletes data' })
      : next())
  },
}

async function kernelWith(options: Parameters<typeof withKernel>[2]) {
  const made = await withKernel(asksAboutRemove, undefined, options)
  let runs = 0
  made.ctx.tools.register(defineTool({ name: 'remove', description: 'Removes.', parameters: { type: 'object' }, execute: () => ++runs }))
  return { ...made, runs: () => runs }
}

describe('withKernel', () => {
  it('without approve, an ask is a deny: no approval service is loaded, and the body never runs', async () => {
    const { ctx, asked, runs } = await kernelWith(undefined)
    const result = await ctx.tools.execute({ id: 'c1', name: 'remove', arguments: {} })
    expect(result.isError && result.error.info?.code).toBe(TOOL_DENIED)
    expect(result.content[0]).toEqual({ type: 'text', text: 'Error: "remove" needs approval (remove deletes data), and no approval service is available' })
    expect([runs(), asked]).toEqual([0, []])
    await ctx.stop()
  })

  it('with approve, answers every ask so and keeps the requests', async () => {
    const { ctx, asked, runs } = await kernelWith({ approve: 'allow-once' })
    expect(await ctx.tools.execute({ id: 'c1', name: 'remove', arguments: { path: 'a' } })).toMatchObject({ isError: false, value: 1 })
    expect(asked.map((r) => [r.exec.id, r.exec.arguments, r.reason])).toEqual([['c1', { path: 'a' }, 'remove deletes data']])
    expect(runs()).toBe(1)
    await ctx.stop()
  })

  it('takes a function of the request, and its deny is final', async () => {
    const { ctx, runs } = await kernelWith({ approve: (request) => request.exec.arguments.path === 'keep' ? 'allow-once' : 'deny' })
    expect(await ctx.tools.execute({ id: 'c1', name: 'remove', arguments: { path: 'keep' } })).toMatchObject({ isError: false })
    const refused = await ctx.tools.execute({ id: 'c2', name: 'remove', arguments: { path: 'all' } })
    expect(refused.content[0]).toEqual({ type: 'text', text: 'Error: "remove" was denied at approval (remove deletes data)' })
    expect(runs()).toBe(1)
    await ctx.stop()
  })
})
