/**
 * What the scheduler uses of `ctx.tools`: the kernel's service itself, taken once per agent
 * (`toolServiceOf`), whose call-path members are already bound to it for the kernel's life.
 * Every cordis property lookup (`ctx.tools`, then each method on it) builds fresh proxies; and
 * functions made per batch would make every call site that calls them see a new target.
 */
import type { ToolService } from '@rein/kernel'
import type { ToolLookup } from './plan.js'

/** The methods of `ctx.tools` a batch calls. */
export interface BatchTools extends ToolLookup {
  chain: ToolService['chain']
  execute: ToolService['execute']
  settle: ToolService['settle']
}

/** The members of `service` the scheduler needs, the same functions for every batch. */
export function batchTools(service: ToolService): BatchTools {
  return {
    chain: (name) => service.chain(name),
    execute: service.execute,
    settle: service.settle,
    executionMode: service.executionMode,
    modeWithoutArguments: service.modeWithoutArguments,
    get: service.get,
  }
}
