/**
 * A kernel to test a plugin against: a started root Context with `@rein/kernel`, then the
 * plugin on `config`. The fork is returned so a test can assert that a bad config was
 * rejected at load (`fork.error`) and that nothing was registered.
 */
import { Context, type ForkScope } from 'cordis'
import * as kernel from '@rein/kernel'

/** A started Context with the kernel and `plugin` applied on `config`. */
export async function withKernel(plugin: object, config?: unknown): Promise<{ ctx: Context, fork: ForkScope }> {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  const fork = ctx.plugin(plugin as Parameters<Context['plugin']>[0], config)
  await ctx.start()
  return { ctx, fork }
}
