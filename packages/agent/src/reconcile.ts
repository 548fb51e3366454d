/**
 * Reconcile on resume (DESIGN.md §7.3). A call logged as started (`tool/call`) that has no
 * result asks its tool's `reconcile` whether its effect happened, under the call's own
 * idempotency key, within the tool's `timeoutMs` (else 30 s) and the run's signal:
 * - `{ ran: true, value }`: the value is committed through `ctx.tools.adopt` (output check,
 *   render, post-execute; `meta.reconciled: true`); the body does not run.
 * - `{ ran: false }`: the call runs now, once, through the whole pipeline (pre-execute,
 *   approval, guards, `tools/execute`), under the same key.
 * - no `reconcile`, a throw, any other answer, no answer in time: `TOOL_OUTCOME_UNKNOWN`,
 *   saying why. An answer is never taken as "ran" unless it is exactly one of the two shapes.
 */
import {
  MAX_TIMER_MS, Messages, TOOL_OUTCOME_UNKNOWN, idempotencyKeyOf, messageOf, readArguments,
  type ExecuteOptions, type Json, type ReconcileAnswer, type ToolDefinition, type ToolExecutionResult, type ToolService,
} from '@rein/kernel'
import type { LoggedCall } from './session.js'

/** How long a `reconcile` may take when its tool sets no `timeoutMs`. */
export const RECONCILE_TIMEOUT_MS = 30_000

/** What a tool's `reconcile` said, read strictly. */
type Answer = { ran: true, value: Json } | { ran: false } | { unknown: string }

/** The result of one started call left without one: committed, run again, or unknown. Never rejects but for a kernel bug. */
export async function reconcileCall(tools: ToolService, call: LoggedCall, options: ExecuteOptions): Promise<ToolExecutionResult> {
  const tool = tools.get(call.name)
  const answer = tool?.reconcile ? await ask(tool, call, options) : undefined
  if (answer && 'ran' in answer) return answer.ran ? tools.adopt(call, answer.value, options) : tools.execute(call, options)
  const why = answer ? ` (${answer.unknown})` : ''
  return tools.settle(call, TOOL_OUTCOME_UNKNOWN, `${Messages.outcomeUnknown}${why}`, options)
}

/** Asks `tool.reconcile` about `call`, within its deadline; whatever goes wrong is `unknown`, saying what. */
async function ask(tool: ToolDefinition, call: LoggedCall, options: ExecuteOptions): Promise<Answer> {
  const args = readArguments(call.arguments)
  if (!args) return { unknown: 'its logged arguments are not a JSON object, so reconcile was not asked' }
  if (options.signal?.aborted) return { unknown: 'the run was aborted before reconcile was asked' }
  const ms = Math.min(tool.timeoutMs ?? RECONCILE_TIMEOUT_MS, MAX_TIMER_MS)
  // One signal for both ends of the deadline; its reason says which came first.
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(new Error(`its reconcile did not answer within ${ms} ms`)), ms)
  const runAborted = () => deadline.abort(new Error('the run was aborted while its reconcile ran'))
  options.signal?.addEventListener('abort', runAborted, { once: true })
  const stopped = new Promise<Answer>((resolve) => {
    deadline.signal.addEventListener('abort', () => resolve({ unknown: messageOf(deadline.signal.reason) }), { once: true })
  })
  try {
    const key = idempotencyKeyOf(call.id, options)
    const answered = (async () => answerOf(await tool.reconcile!({ arguments: args, idempotencyKey: key, signal: deadline.signal })))()
    return await Promise.race([answered.catch((error: unknown): Answer => ({ unknown: `its reconcile failed: ${messageOf(error)}` })), stopped])
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', runAborted)
  }
}

/** `{ ran: true, value }` or `{ ran: false }` exactly (own data properties, nothing else); anything else is unknown. */
function answerOf(answer: ReconcileAnswer<unknown> | unknown): Answer {
  const bad: Answer = { unknown: 'its reconcile answered neither { ran: true, value } nor { ran: false }' }
  try {
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return bad
    const keys = Reflect.ownKeys(answer)
    const ran = Object.getOwnPropertyDescriptor(answer, 'ran')
    if (ran?.value === false && keys.length === 1) return { ran: false }
    const value = Object.getOwnPropertyDescriptor(answer, 'value')
    if (ran?.value === true && keys.length === 2 && value && 'value' in value) return { ran: true, value: value.value as Json }
    return bad
  } catch {
    return bad
  }
}
