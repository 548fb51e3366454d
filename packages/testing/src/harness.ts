/**
 * A kernel to test a plugin against: a started root Context with `@rein/kernel`, then the
 * plugin on `config`. The fork is returned so a test can assert that a bad config was
 * rejected at load (`fork.error`) and that nothing was registered. With `approve`, the Context
 * also has an approval service (`ctx.approval`) answering every `ask` as told and keeping
 * each request in `asked`; without it an ask is a deny, as in a harness with no approval service.
 */
import { Context, type ForkScope } from 'cordis'
import * as kernel from '@rein/kernel'
import type { ApprovalAnswer, ApprovalRequest } from '@rein/kernel'

/** How `withKernel` sets the Context up around the plugin. */
export interface WithKernelOptions {
  /**
   * Answers every ask: `'allow-once'`, `'allow-session'` or `'deny'`, or a function of the
   * request returning one. Mounts `ctx.approval`, so do not pass it when testing a plugin that
   * provides that service itself (permission-guard: give it `ask` instead).
   */
  approve?: ApprovalAnswer | ((request: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>)
}

/** A started Context with the kernel and `plugin` applied on `config`, and the approval requests seen. */
export async function withKernel(plugin: object, config?: unknown, options: WithKernelOptions = {}): Promise<{ ctx: Context, fork: ForkScope, asked: ApprovalRequest[] }> {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  const asked: ApprovalRequest[] = []
  const { approve } = options
  if (approve !== undefined) {
    ctx.set('approval', {
      async request(request: ApprovalRequest): Promise<ApprovalAnswer> {
        asked.push(request)
        return typeof approve === 'function' ? approve(request) : approve
      },
    })
  }
  const fork = ctx.plugin(plugin as Parameters<Context['plugin']>[0], config)
  await ctx.start()
  return { ctx, fork, asked }
}
