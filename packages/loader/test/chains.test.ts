import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { describeChains, formatChains } from '../src/chains.js'

async function contextWith(...plugins: { name: string, hooks: string[] }[]) {
  const ctx = new Context()
  ctx.plugin(kernel)
  for (const { name, hooks } of plugins) {
    ctx.plugin({
      name,
      inject: ['tools'],
      apply(ctx: Context) {
        for (const hook of hooks) {
          if (hook === 'guards') ctx.tools.guard(() => undefined)
          else ctx.on(hook as 'tools/execute', (_exec: unknown, next: () => Promise<any>) => next())
        }
      },
    })
    await ctx.start()
  }
  return ctx
}

describe('describeChains', () => {
  it('lists each hook in pipeline order with its plugins, outermost first', async () => {
    const ctx = await contextWith(
      { name: 'audit', hooks: ['tools/pre-execute', 'tools/result', 'tools/hand-off'] },
      { name: 'guard', hooks: ['tools/pre-execute', 'guards'] },
      { name: 'cache', hooks: ['tools/execute'] },
      { name: 'retry', hooks: ['tools/execute'] },
      { name: 'spill', hooks: ['tools/post-execute'] },
    )
    expect(describeChains(ctx).map(({ hook, plugins }) => [hook, plugins])).toEqual([
      ['tools/pre-execute', ['audit', 'guard']],
      ['guards', ['guard']],
      ['tools/execute', ['cache', 'retry']],
      ['tools/post-execute', ['spill']],
      ['tools/result', ['audit']],
      ['tools/hand-off', ['audit']],
    ])
    await ctx.stop()
  })

  it('renders one line per hook, ending with what sits innermost', async () => {
    const ctx = await contextWith({ name: 'cache', hooks: ['tools/execute'] }, { name: 'retry', hooks: ['tools/execute'] })
    expect(formatChains(describeChains(ctx)).split('\n')).toEqual([
      'tools/pre-execute   (default: allow)',
      'guards              (all must pass)',
      'tools/execute       cache > retry > (tool body)',
      'tools/post-execute  (default: accept)',
      'tools/result        (observers, in order)',
      'tools/hand-off      (all settled, then the caller)',
    ])
    await ctx.stop()
  })

  it('refuses a Context without the kernel', () => {
    expect(() => describeChains(new Context())).toThrow('this Context has no kernel (ctx.tools); plug @rein/kernel first')
  })
})
