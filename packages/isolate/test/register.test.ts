import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { registerIsolated, type IsolatedTool } from '../src/index.js'
import { FIXTURE, harness, outcome } from './helpers.js'

describe('registerIsolated', () => {
  it('registers the tool for the life of the plugin and destroys its pool when the plugin is disposed', async () => {
    const ctx = await harness()
    let tool!: IsolatedTool
    const fork = ctx.plugin({
      name: 'isolated-tools',
      inject: ['tools'],
      apply: (ctx: Context) => {
        tool = registerIsolated(ctx, { name: 'who', description: 'd', parameters: { type: 'object' }, module: FIXTURE, export: 'whoami' })
      },
    })
    await ctx.start()
    expect(outcome(await ctx.tools.execute({ id: 'c1', name: 'who', arguments: {} }))).toEqual(['OK'])
    expect(tool.threads()).toBe(1)
    fork.dispose()
    await tool.settled()
    expect(tool.threads()).toBe(0)
    expect(ctx.tools.get('who')).toBeUndefined()
  })
})
