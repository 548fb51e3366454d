/**
 * What a call settles with when it ends other than through its body: a stage that failed, a
 * guard's deny or failure, an abort, a call given up on, and a post-execute decision applied.
 * Each is a `failure(...)` (so its first content block is its error line) or a checked copy.
 */
import { ABORTED, ABORTED_BEFORE_DISPATCH, Messages, PIPELINE_FAILED, TOOL_BLOCKED, TOOL_DENIED } from './codes.js'
import { PipelineError, type ChainEntry } from './compose.js'
import { CALL, type Exec } from './exec.js'
import { messageOf, readSafely } from './hostile.js'
import { trusted } from './normalize.js'
import type { Guard } from './pipeline.js'
import { failure } from './results.js'
import type { PostToolDecision, ToolExecutionResult } from './types.js'

/** A guard that threw or rejected: the call fails closed, naming the plugin. */
export function guardFailure(guard: ChainEntry<Guard>, error: unknown): ToolExecutionResult {
  return failure(PIPELINE_FAILED, `guard of plugin "${guard.plugin}" failed: ${messageOf(error)}`, 'guard', guard.plugin)
}

/** A guard's reason: a deny, with the reason as given when it is a non-empty string. */
export function guardDenial(guard: ChainEntry<Guard>, reason: unknown): ToolExecutionResult {
  return failure(TOOL_DENIED, typeof reason === 'string' && reason ? reason : `denied by a guard of plugin "${guard.plugin}"`)
}

/** A stage that threw: the plugin and stage it names, or the kernel's own failure. */
export function stageFailure(error: unknown) {
  if (error instanceof PipelineError) return failure(PIPELINE_FAILED, error.message, error.stage, error.plugin)
  return internalFailure(error)
}

/** A bug in rein's pipeline, as a result rather than a rejection. */
export function internalFailure(error: unknown) {
  return failure(PIPELINE_FAILED, `internal error in rein's pipeline: ${messageOf(error)}`, 'kernel')
}

/** A decision kind the kernel does not know: never fall open. */
export function unreachable(decision: never, stage: string) {
  return failure(PIPELINE_FAILED, `${stage} decided ${JSON.stringify(readSafely(decision, 'kind'))}, which the kernel does not know`, stage)
}

/** A success turned `ABORTED` by the caller's abort keeps the additional context it already had. */
export function abortedFrom(result: ToolExecutionResult): ToolExecutionResult {
  const aborted = failure(ABORTED, Messages.aborted)
  return result.additionalContexts?.length ? trusted({ ...aborted, additionalContexts: result.additionalContexts }) : aborted
}

/**
 * What a call the kernel gave up on (its caller aborted `abandonAfterMs` ago) settles with:
 * the failure it had already reached; `ABORTED` if its body had started (or had succeeded);
 * `ABORTED_BEFORE_DISPATCH` if it never reached its body (a hook or an approval still pending).
 */
export function abandoned(exec: Exec): ToolExecutionResult {
  const { outcome, bodyStarted } = exec[CALL]
  if (outcome?.isError) return outcome
  if (outcome) return abortedFrom(outcome)
  return bodyStarted ? failure(ABORTED, Messages.aborted, 'Abandoned') : failure(ABORTED_BEFORE_DISPATCH, Messages.abortedBeforeDispatch, 'Abandoned')
}

/** Applies a (checked) post-execute decision. A deny or failure stays an error whatever is accepted. */
export function applyPost(result: ToolExecutionResult, decision: PostToolDecision): ToolExecutionResult {
  switch (decision.kind) {
    case 'block':
      return failure(TOOL_BLOCKED, decision.feedback)
    case 'accept': {
      let out = result
      if (decision.content) out = { ...out, content: decision.content }
      if (decision.value !== undefined && !out.isError) out = { ...out, value: decision.value }
      if (decision.additionalContexts?.length) {
        out = { ...out, additionalContexts: [...(out.additionalContexts ?? []), ...decision.additionalContexts] }
      }
      return out
    }
    default:
      return unreachable(decision, 'tools/post-execute')
  }
}
