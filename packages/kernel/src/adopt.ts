/**
 * `ctx.tools.adopt` (DESIGN.md §7.3): the value of a call whose effect already happened (a
 * `reconcile` that answered `ran: true`) becomes its result. No pre-execute, approval, guard or
 * `tools/execute` layer runs (the effect is done); the value is checked and rendered like a
 * body's, then post-execute and the observers see it, with `meta.reconciled: true`.
 */
import { EMPTY_ARGS, argumentsOf } from './arguments.js'
import { valueResult } from './body.js'
import { checkedExec } from './call-checks.js'
import { Messages, UNKNOWN_TOOL } from './codes.js'
import { Pipeline } from './pipeline.js'
import { failure, internalFailure } from './results.js'
import type { ExecuteOptions, ToolCall, ToolExecutionResult } from '@rein/types'

class Adopting extends Pipeline {
  async adopt(call: ToolCall, value: unknown, options: ExecuteOptions): Promise<ToolExecutionResult> {
    const { snap } = argumentsOf(call)
    const exec = checkedExec(call, snap?.ok ? snap.value as Record<string, unknown> : EMPTY_ARGS, options, 'adopt')
    if (typeof exec === 'string') throw new TypeError(exec)
    exec.meta.reconciled = true
    const tool = this.deps.registry.get(exec.name)
    try {
      return await this.post(exec, tool ? await valueResult(tool, exec, value) : failure(UNKNOWN_TOOL, Messages.unknownTool(exec.name, this.deps.registry.names())))
    } catch (error) {
      return this.final(exec, internalFailure(error))
    }
  }
}

/** The result of `call` with `value` as its body's outcome. Rejects only for options `execute` would refuse. */
export const adopt = (pipeline: Pipeline, call: ToolCall, value: unknown, options: ExecuteOptions = {}): Promise<ToolExecutionResult> =>
  new Adopting(pipeline.deps).adopt(call, value, options)
