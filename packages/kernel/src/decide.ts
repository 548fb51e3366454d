/**
 * The two entry points for a host that runs tools itself (Claude Code, through `rein hook`):
 * `decide` answers what the pipeline would do with a call up to its body — the argument
 * checks, `tools/pre-execute` and every guard (after an allow and after an ask) — and never
 * asks the approval service, runs a body or tells an observer; `observe` hands a call the host
 * ran (or refused), with its result, to the `tools/result` observers and `tools/hand-off` holds,
 * so it is audited like any call.
 */
import { applyChecked, argumentsOf, EMPTY_ARGS, isArgumentsRule, type Arguments } from './arguments.js'
import { checkedExec } from './call-checks.js'
import {
  ABORTED_BEFORE_DISPATCH, INVALID_ARGS, Messages, PIPELINE_FAILED, TOOL_DENIED, UNKNOWN_TOOL,
} from './codes.js'
import { CALL, type Exec } from './exec.js'
import { guardDenial, guardFailure, type Pipeline } from './pipeline.js'
import { failure, internalFailure, resultOf, stageFailure } from './results.js'
import { rewritten } from './rewrite.js'
import { closedMessage } from './startup.js'
import type { ExecuteOptions, PreToolDecision, ToolCall, ToolExecutionResult, ToolFailure } from './types.js'

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

/** The decision for `call`, as far as the pipeline would take it before its body. Never rejects. */
export async function decide(pipeline: Pipeline, call: ToolCall, options: ExecuteOptions = {}): Promise<Decision> {
  const args = argumentsOf(call)
  const exec = checkedExec(call, args.snap?.ok ? args.snap.value as Record<string, unknown> : EMPTY_ARGS, options, 'execute')
  if (typeof exec === 'string') return invalid(failure(PIPELINE_FAILED, exec))
  try {
    const problems = pipeline.deps.startup()
    if (problems.length > 0) return invalid(failure(PIPELINE_FAILED, closedMessage(problems)))
    if (exec[CALL].signal?.aborted) return invalid(failure(ABORTED_BEFORE_DISPATCH, Messages.abortedBeforeDispatch))
    const tool = pipeline.deps.registry.get(exec.name)
    if (!tool) return invalid(failure(UNKNOWN_TOOL, Messages.unknownTool(exec.name, pipeline.deps.registry.names())))
    exec[CALL].tool = tool
    const bad = await argumentProblem(exec, args)
    if (bad) return invalid(failure(INVALID_ARGS, `invalid arguments for "${exec.name}": ${bad}`))
    let decision: PreToolDecision
    try {
      decision = await pipeline.preChain()(exec)
    } catch (error) {
      return invalid(stageFailure(error))
    }
    exec[CALL].decision = decision.kind
    if (decision.kind === 'deny') return decision
    if (decision.kind === 'allow' && decision.arguments !== undefined) {
      const problem = await rewritten(exec, decision.arguments, (why) => why)
      if (problem) return invalid(failure(INVALID_ARGS, problem))
    }
    const denied = await guarded(pipeline, exec)
    if (denied) return denied.error.info?.code === TOOL_DENIED ? { kind: 'deny', reason: denied.error.message } : invalid(denied)
    if (decision.kind === 'ask') return decision
    return exec[CALL].original ? { kind: 'allow', arguments: exec.arguments } : { kind: 'allow' }
  } catch (error) {
    return invalid(internalFailure(error))
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

/** Every guard in order; the first reason (or failure) ends it. */
async function guarded(pipeline: Pipeline, exec: Exec): Promise<ToolFailure | undefined> {
  for (const guard of pipeline.deps.guards.slice()) {
    let reason: unknown
    try {
      reason = await guard.handler.call(guard.owner, exec)
    } catch (error) {
      return guardFailure(guard.plugin, error) as ToolFailure
    }
    if (reason !== undefined && reason !== null) return guardDenial(guard.plugin, reason) as ToolFailure
  }
  return undefined
}

/** What is wrong with the call's arguments, as the pipeline checks them; undefined when they pass. */
async function argumentProblem(exec: Exec, { parsed, snap }: Arguments): Promise<string | undefined> {
  if (typeof parsed === 'string') return 'arguments are not valid JSON'
  if (snap && !snap.ok) return isArgumentsRule(snap.problem) ? snap.problem : `arguments are not plain JSON (${snap.problem})`
  return applyChecked(exec, await exec[CALL].tool!.checkArgs(snap?.ok ? snap.value : parsed))
}

function invalid(result: ToolExecutionResult): Decision {
  const error = (result as ToolFailure).error
  return { kind: 'invalid', code: error.info?.code ?? PIPELINE_FAILED, message: error.message }
}
