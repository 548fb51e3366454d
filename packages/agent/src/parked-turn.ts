/**
 * A turn that waits for approvals: the last batch of the session, not ended, in which a call
 * parked (it has an `approval/request`), with calls still to run: parked ones (no result; their
 * latest request came after their latest `tool/call`) and ones never started (held behind a
 * parked call). Such a turn is continued, not repaired: those calls run when the session
 * continues (`agent.run()`); a call that started again and left no result (a continuation that
 * died) is repaired as any other. What the continuation needs is read here
 * too: the results already committed, and the requests that expired unanswered.
 */
import { DEPENDENCY_FAILED, type ToolCall, type ToolExecutionResult } from '@rein/kernel'
import { parkedOf, type ParkedCall } from './approval-book.js'
import { callKey, type Approvals } from './approval-entries.js'
import type { SessionEntry } from './session.js'

/** The batch a parked session continues. */
export interface ParkedTurn {
  turn: number
  /** The calls of its assistant message, in model order. */
  calls: readonly ToolCall[]
  /** The calls it continues (parked, or never started), by index: repair leaves them alone. */
  continuing: ReadonlySet<number>
}

/** The turn awaiting approval in `entries`, if any. */
export function parkedTurnOf(entries: readonly SessionEntry[], approvals: Approvals): ParkedTurn | undefined {
  let turn: number | undefined
  let calls: readonly ToolCall[] = []
  const ended = new Set<number>()
  const started = new Map<string, number>()
  for (const entry of entries) {
    if (entry.type === 'message' && entry.turn !== undefined && entry.message.role === 'assistant' && entry.message.toolCalls?.length) {
      turn = entry.turn
      calls = entry.message.toolCalls
    } else if (entry.type === 'turn/end') {
      ended.add(entry.turn)
    } else if (entry.type === 'tool/call') {
      started.set(callKey(entry.turn, entry.index), entry.seq)
    }
  }
  if (turn === undefined || ended.has(turn)) return undefined
  const continuing = new Set<number>()
  let parked = false
  for (let index = 0; index < calls.length; index++) {
    const key = callKey(turn, index)
    const request = approvals.byCall.get(key)?.request
    if (request) parked = true
    if (approvals.results.has(key)) continue
    const startedAt = started.get(key)
    if (startedAt === undefined || (request && startedAt < request.seq)) continuing.add(index)
  }
  return parked && continuing.size > 0 ? { turn, calls, continuing } : undefined
}

/** What the continuation of `parked` starts from. */
export interface Continuation {
  /** The results its calls already have, by index (rebuilt from their entries). */
  results: Map<number, ToolExecutionResult>
  /** The calls whose request expired unanswered, by index: the message they are denied with. */
  expired: Map<number, string>
  /** For a result that is `DEPENDENCY_FAILED`: the failure that started it (what its own dependents pass on). */
  causes: Map<number, { id: string, message: string }>
  /**
   * The calls whose request stands (answered or not, unexpired), by index: an abort before they
   * start leaves them parked, so a later continuation still runs them.
   */
  standing: Map<number, ParkedCall>
}

/** The results committed for `parked`'s calls, and its expired requests as of `now`. */
export function continuationOf(entries: readonly SessionEntry[], parked: ParkedTurn, approvals: Approvals, now: number): Continuation {
  const results = new Map<number, ToolExecutionResult>()
  const causes = new Map<number, { id: string, message: string }>()
  for (const entry of entries) {
    if (entry.type !== 'tool/result' || entry.turn !== parked.turn) continue
    const result = resultOf(entry)
    results.set(entry.index, result)
    const cause = result.isError && entry.code === DEPENDENCY_FAILED ? causeOf(result.error.message) : undefined
    if (cause) causes.set(entry.index, cause)
  }
  const expired = new Map<number, string>()
  const standing = new Map<number, ParkedCall>()
  for (const index of parked.continuing) {
    const record = approvals.byCall.get(callKey(parked.turn, index))
    if (!record) continue
    const expiresAt = record.request.expiresAt
    if (record.answer || expiresAt === undefined || now <= expiresAt) standing.set(index, parkedOf(record.request))
    else expired.set(index, `"${record.request.tool}" was denied: its approval request ${record.request.id} expired unanswered at ${new Date(expiresAt).toISOString()}`)
  }
  return { results, expired, causes, standing }
}

/**
 * The failure a `DEPENDENCY_FAILED` message names (`Messages.dependencyFailed`): the call whose
 * own failure started the chain, and its message (as far as the message kept it).
 */
function causeOf(message: string): { id: string, message: string } | undefined {
  const match = /^depends on (.*?), which failed(?: because (.*?) failed)?: ([\s\S]*)$/.exec(message)
  return match ? { id: match[2] ?? match[1]!, message: match[3]! } : undefined
}

/** A committed result as the scheduler holds one: what the model was shown, its code, whether it ends the run, and its value when it was kept. */
function resultOf(entry: Extract<SessionEntry, { type: 'tool/result' }>): ToolExecutionResult {
  const { content, isError } = entry.message
  const contexts = entry.additionalContexts ? { additionalContexts: entry.additionalContexts } : {}
  if (!isError) {
    const success: ToolExecutionResult = { isError: false, value: entry.value ?? null, content, ...contexts }
    if (entry.concludesTurn) success.concludesTurn = true
    return success
  }
  const first = content[0]
  const text = first?.type === 'text' ? first.text.replace(/^Error: /, '') : 'failed'
  const info = entry.code === undefined ? {} : { info: { code: entry.code } }
  const failure: ToolExecutionResult = { isError: true, content, error: { message: text, ...info }, ...contexts }
  // A result that ended the run (a budget's end-run) ends the continuation the same way.
  if (entry.endsRun) failure.endsRun = true
  return failure
}
