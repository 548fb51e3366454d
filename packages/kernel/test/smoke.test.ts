import { Context } from 'cordis'
import { expect, it } from 'vitest'
import * as kernel from '../src/index.js'
import { defineTool } from '../src/index.js'

it('runs a tool through hooks', async () => {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  const order: string[] = []
  const fork = ctx.plugin({
    name: 'p1', inject: ['tools'],
    apply(ctx: Context) {
      ctx.on('tools/execute', async (exec, next) => { order.push('in'); const r = await next(); order.push('out'); return r })
      ctx.tools.register(defineTool({ name: 'echo', description: 'e', parameters: { type: 'object' }, execute: (a) => a }))
    },
  })
  await ctx.start()
  const r = await ctx.tools.execute({ id: '1', name: 'echo', arguments: '{"x":1}' })
  expect(r).toMatchObject({ isError: false, value: { x: 1 } })
  expect(order).toEqual(['in', 'out'])
  expect(ctx.tools.chain('tools/execute')).toEqual(['p1'])
  fork.dispose()
  expect(ctx.tools.chain('tools/execute')).toEqual([])
  const r2 = await ctx.tools.execute({ id: '2', name: 'echo', arguments: {} })
  expect(r2.isError && r2.error.info?.code).toBe('UNKNOWN_TOOL')
})
