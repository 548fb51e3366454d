/**
 * The two entry points for a host that runs tools itself (Claude Code, through `rein hook`).
 * `decide` runs the pipeline's own stages up to the body — the argument checks,
 * `tools/pre-execute` and every guard (after an allow and after an ask) — and never asks the
 * approval service, runs a body or post-execute, or tells an observer. `observe` hands a call
 * the host ran (or refused), with its result, to the `tools/result` observers and
 * `tools/hand-off` holds, so it is audited like any call.
 */
import { EMPTY_ARGS, argumentsOf, type Arguments } from './arguments.js'
import { checkedExec } from './call-checks.js'
import { PIPELINE_FAILED, TOOL_DENIED } from './codes.js'
import { CALL, type Exec } from './exec.js'
import { Pipeline, type Final } from './pipeline.js'
import { failure, internalFailure, resultOf } from './results.js'
import { closedMessage } from './startup.js'
import type { ExecuteOptions, PreToolDecision, ToolCall, ToolExecutionResult } from '@rein/types'

/** What `ctx.tools.decide` answers. `invalid` is a call the pipeline would refuse before pre-execute, or a stage that failed. */
export type Decision =
  | { kind: 'allow', /** present when pre-execute rewrote them */ arguments?: Readonly<Record<string, unknown>> }
  | { kind: 'ask', reason?: string }
  | { kind: 'deny', reason: string }
  | { kind: 'invalid', code: string, message: string }

/** Options of `ctx.tools.observe`: the call's options, and what its pre-execute decided (for the audit line). */
export interface ObserveOptions extends ExecuteOptions {
  decision?: PreToolDecision['kind']
}

/** What the decide-only pipeline ends with when the body would run. */
const BODY = failure('BODY', 'the body would run')

/** The pipeline, one per decision, ending where the body, the approval or post-execute would begin. */
class DecideOnly extends Pipeline {
  asked?: { reason?: string }
  protected override body(): Final { return BODY }
  protected override post(_exec: Exec, result: ToolExecutionResult): Final { return result }
  override final(_exec: Exec, result: ToolExecutionResult): Final { return result }
  protected override async ask(exec: Exec, reason: string | undefined, signal: AbortSignal | undefined) {
    this.asked = reason === undefined ? {} : { reason }
    return this.guarded(exec, signal)
  }

  async decide(exec: Exec, args: Arguments): Promise<Decision> {
    const problems = this.deps.startup()
    const result = problems.length > 0 ? failure(PIPELINE_FAILED, closedMessage(problems)) : await this.run(exec, args, exec[CALL].signal)
    if (result === BODY) {
      if (this.asked) return { kind: 'ask', ...this.asked }
      return exec[CALL].original ? { kind: 'allow', arguments: exec.arguments } : { kind: 'allow' }
    }
    const error = (result as Extract<ToolExecutionResult, { isError: true }>).error
    const code = error.info?.code ?? PIPELINE_FAILED
    return code === TOOL_DENIED ? { kind: 'deny', reason: error.message } : { kind: 'invalid', code, message: error.message }
  }
}

/** The decision for `call`, as far as the pipeline would take it before its body. Never rejects. */
export async function decide(pipeline: Pipeline, call: ToolCall, options: ExecuteOptions = {}): Promise<Decision> {
  const args = argumentsOf(call)
  const exec = checkedExec(call, args.snap?.ok ? args.snap.value as Record<string, unknown> : EMPTY_ARGS, options, 'execute')
  if (typeof exec === 'string') return { kind: 'invalid', code: PIPELINE_FAILED, message: exec }
  try {
    return await new DecideOnly(pipeline.deps).decide(exec, args)
  } catch (error) {
    return { kind: 'invalid', code: PIPELINE_FAILED, message: internalFailure(error).error.message }
  }
}

/**
 * Hands a call that ran outside the pipeline, and its result, to the `tools/result` observers
 * and the `tools/hand-off` holds: resolves with the frozen result once every hold has let go.
 * A result that is not well formed is observed as the `PIPELINE_FAILED` failure saying why.
 */
export async function observe(pipeline: Pipeline, call: ToolCall, result: unknown, options: ObserveOptions = {}): Promise<ToolExecutionResult> {
  const { snap } = argumentsOf(call)
  const exec = checkedExec(call, snap?.ok ? snap.value as Record<string, unknown> : EMPTY_ARGS, options, 'execute')
  if (typeof exec === 'string') throw new TypeError(exec)
  exec[CALL].decision = options.decision
  const checked = resultOf(result)
  return pipeline.final(exec, typeof checked === 'string' ? failure(PIPELINE_FAILED, `the observed result is not well formed: ${checked}`, 'observe') : checked)
}
