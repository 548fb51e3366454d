/**
 * The agent's side of durable approvals: `exec.session.approvals` (the kernel's
 * `SessionApprovals`) over the session's approval entries, read afresh at the start of each run.
 * An approval service asks `answered` for the answer a person wrote (bound to tool, canonical
 * arguments and rule); the scheduler asks `park` what to record for a call that parked: the
 * request already standing for it, or a new one. Nothing is written here.
 */
import { randomUUID } from 'node:crypto'
import type { ApprovalRequest, Json, RecordedApproval, SessionApprovals } from '@rein/kernel'
import { approvalsOf, callKey, isBoundTo, type Approvals, type RequestEntry } from './approval-entries.js'
import type { NewSessionEntry, SessionEntry } from './session.js'

/** A call waiting for approval, as `awaiting-approval` lists it (DESIGN.md §7.2, contract). */
export interface ParkedCall {
  /** The request's id: what `answerApproval` takes. */
  id: string
  callId: string
  tool: string
  /** The parsed arguments the call would run with. */
  arguments: { [key: string]: Json }
  reason?: string
}

/** How a run treats an ask nobody has answered: a live asker (`ask`) or a parked call (`park`). */
export type ApprovalsMode = 'ask' | 'park'

export class ApprovalBook implements SessionApprovals {
  private approvals: Approvals = approvalsOf([])
  /** What each call asked under this run (`answered`), by `callKey`: what a park binds to. */
  private readonly asked = new Map<string, { rule: string, reason?: string }>()

  constructor(readonly mode: ApprovalsMode, private readonly expiresAfterMs: number | undefined) {}

  /** Takes the session's approvals from its entries (at the start of a run, after reading the store afresh). */
  read(entries: readonly SessionEntry[]): void {
    this.approvals = approvalsOf(entries)
    this.asked.clear()
  }

  /** The session's approvals as last read. */
  get current(): Approvals {
    return this.approvals
  }

  answered({ exec, reason }: ApprovalRequest, rule: string): RecordedApproval | undefined {
    // A sub-call (run_code's) has no request of its own here.
    if (exec.turn === undefined || exec.index === undefined || exec.parent !== undefined) return undefined
    const key = callKey(exec.turn, exec.index)
    this.asked.set(key, reason === undefined ? { rule } : { rule, reason })
    const record = this.approvals.byCall.get(key)
    if (!record?.answer || record.request.callId !== exec.id || !isBoundTo(record.request, exec.name, exec.arguments, rule)) return undefined
    const { id, answer, by, at } = record.answer
    return by === undefined ? { id, answer, at } : { id, answer, by, at }
  }

  /**
   * A call that parked: the request `entry` to append. When the request standing for it is
   * unanswered and bound to what the call asks now, it is that request again (same id, same
   * expiry: the log then shows the call parked again rather than started and lost); else a new one.
   */
  park(turn: number, index: number, call: { id: string, name: string }, args: { [key: string]: Json }, now: number): { entry: NewSessionEntry, parked: ParkedCall } {
    const { rule, reason } = this.asked.get(callKey(turn, index)) ?? { rule: '' }
    const standing = this.approvals.byCall.get(callKey(turn, index))
    if (standing && !standing.answer && standing.request.callId === call.id && isBoundTo(standing.request, call.name, args, rule)) {
      const { seq: _seq, ...again } = standing.request
      return { entry: { ...again, at: now }, parked: parkedOf(standing.request) }
    }
    const entry: NewSessionEntry & { type: 'approval/request' } = {
      type: 'approval/request', id: `apr_${randomUUID()}`, turn, index, callId: call.id, tool: call.name, arguments: args, rule, at: now,
    }
    if (reason !== undefined) entry.reason = reason
    if (this.expiresAfterMs !== undefined) entry.expiresAt = now + this.expiresAfterMs
    return { entry, parked: parkedOf(entry) }
  }
}

/** What the outcome lists for a request. */
export function parkedOf(request: Pick<RequestEntry, 'id' | 'callId' | 'tool' | 'arguments' | 'reason'>): ParkedCall {
  const parked: ParkedCall = { id: request.id, callId: request.callId, tool: request.tool, arguments: request.arguments }
  if (request.reason !== undefined) parked.reason = request.reason
  return parked
}
