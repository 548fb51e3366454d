/**
 * What the scheduler uses of `ctx.tools`, resolved once per batch. Every cordis property
 * lookup (`ctx.tools`, then each method on it) builds proxies, which a batch of ten thousand
 * calls would pay for on every call; these are plain bound functions.
 */
import type { Context } from 'cordis'
import type { ToolService } from '@rein/kernel'
import type { ToolLookup } from './plan.js'

/** The methods of `ctx.tools` a batch calls, as plain bound functions. */
export interface BatchTools extends ToolLookup {
  chain: ToolService['chain']
  execute: ToolService['execute']
  settle: ToolService['settle']
}

/** Binds the methods of `ctx.tools` the scheduler needs. */
export function bindTools(ctx: Context): BatchTools {
  const service = ctx.tools
  return {
    chain: service.chain.bind(service),
    execute: service.execute.bind(service),
    settle: service.settle.bind(service),
    executionMode: service.executionMode.bind(service),
    modeWithoutArguments: service.modeWithoutArguments.bind(service),
    get: service.get.bind(service),
  }
}
