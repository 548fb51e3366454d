/**
 * The agent's side of durable approvals: `exec.session.approvals` (the kernel's
 * `SessionApprovals`) over the session's approval entries, read afresh at the start of each run.
 * An approval service asks `answered` for the answer a person wrote (bound to tool, canonical
 * arguments and rule); the scheduler asks `park` what to record for a call that parked: the
 * request already standing for it, or a new one. Nothing is written here.
 */
import { randomUUID } from 'node:crypto'
import type { ApprovalRequest, Json, RecordedApproval, SessionApprovals } from '@rein/kernel'
import { approvalsOf, callKey, canonicalJson, isBoundTo, type Approvals, type AnswerEntry, type RequestEntry } from './approval-entries.js'
import type { NewSessionEntry, SessionEntry, SubCallRef } from './session.js'

/** A call waiting for approval, as `awaiting-approval` lists it (DESIGN.md §7.2, contract). */
export interface ParkedCall {
  /** The request's id: what `answerApproval` takes. */
  id: string
  callId: string
  tool: string
  /** The parsed arguments the call would run with. */
  arguments: { [key: string]: Json }
  reason?: string
  /**
   * When a sub-call asked (a `tools.<name>()` of `run_code`): that sub-call. The request is the
   * parent's (`callId`, `tool` and `arguments` are the parent call's, which parks and continues);
   * the answer is for this sub-call, matched by its id (its order), tool and arguments.
   */
  subCall?: SubCallRef
}

/** How a run treats an ask nobody has answered: a live asker (`ask`) or a parked call (`park`). */
export type ApprovalsMode = 'ask' | 'park'

export class ApprovalBook implements SessionApprovals {
  private approvals: Approvals = approvalsOf([])
  /** What each call asked under this run (`answered`), by `callKey`: what a park binds to. */
  private readonly asked = new Map<string, { rule: string, reason?: string }>()
  /** The first unanswered sub-call ask under each parent call in this run, by `subKey`: what the parent's park binds to. */
  private readonly subAsked = new Map<string, { rule: string, reason?: string, subCall: SubCallRef }>()

  constructor(readonly mode: ApprovalsMode, private readonly expiresAfterMs: number | undefined) {}

  /** Takes the session's approvals from its entries (at the start of a run, after reading the store afresh). */
  read(entries: readonly SessionEntry[]): void {
    this.approvals = approvalsOf(entries)
    this.asked.clear()
    this.subAsked.clear()
  }

  /** The session's approvals as last read. */
  get current(): Approvals {
    return this.approvals
  }

  answered({ exec, reason }: ApprovalRequest, rule: string): RecordedApproval | undefined {
    if (exec.turn === undefined) return undefined
    if (exec.parent !== undefined) return this.answeredSub(exec.turn, exec.parent, { id: exec.id, tool: exec.name, arguments: exec.arguments as { [key: string]: Json } }, rule, reason)
    if (exec.index === undefined) return undefined
    const key = callKey(exec.turn, exec.index)
    this.asked.set(key, reason === undefined ? { rule } : { rule, reason })
    const record = this.approvals.ownByCall.get(key)
    if (!record?.answer || record.request.callId !== exec.id || !isBoundTo(record.request, exec.name, exec.arguments, rule)) return undefined
    return recordedOf(record.answer)
  }

  /**
   * A sub-call's ask (`run_code`'s `tools.<name>()`): the answer given to its parent's latest
   * request when that request was for this very sub-call (same id, so the same order in the
   * parent's run; same tool, canonical arguments and rule). Unanswered, the first such ask of the
   * parent in this run is what the parent's request will be for when the parent parks.
   */
  private answeredSub(turn: number, parent: string, subCall: SubCallRef, rule: string, reason: string | undefined): RecordedApproval | undefined {
    for (const record of this.approvals.byCall.values()) {
      const { request } = record
      if (request.turn !== turn || request.callId !== parent || !record.answer || request.subCall === undefined) continue
      if (request.rule === rule && canonicalJson(request.subCall) === canonicalJson(subCall)) return recordedOf(record.answer)
    }
    const key = subKey(turn, parent)
    if (!this.subAsked.has(key)) this.subAsked.set(key, reason === undefined ? { rule, subCall } : { rule, reason, subCall })
    return undefined
  }

  /**
   * A call that parked: the request `entry` to append. When the request standing for it is
   * unanswered and bound to what the call asks now, it is that request again (same id, same
   * expiry: the log then shows the call parked again rather than started and lost); else a new one.
   */
  park(turn: number, index: number, call: { id: string, name: string }, args: { [key: string]: Json }, now: number): { entry: NewSessionEntry, parked: ParkedCall } {
    // A sub-call that asked is why the call parked (its own ask, if any, was answered: its body ran).
    const sub = this.subAsked.get(subKey(turn, call.id))
    const { rule, reason } = sub ?? this.asked.get(callKey(turn, index)) ?? { rule: '' }
    const standing = this.approvals.byCall.get(callKey(turn, index))
    if (standing && !standing.answer && standing.request.callId === call.id && isBoundTo(standing.request, call.name, args, rule, sub?.subCall)) {
      const { seq: _seq, ...again } = standing.request
      return { entry: { ...again, at: now }, parked: parkedOf(standing.request) }
    }
    const entry: NewSessionEntry & { type: 'approval/request' } = {
      type: 'approval/request', id: `apr_${randomUUID()}`, turn, index, callId: call.id, tool: call.name, arguments: args, rule, at: now,
    }
    if (reason !== undefined) entry.reason = reason
    if (sub) entry.subCall = sub.subCall
    if (this.expiresAfterMs !== undefined) entry.expiresAt = now + this.expiresAfterMs
    return { entry, parked: parkedOf(entry) }
  }
}

/** What the outcome lists for a request. */
export function parkedOf(request: Pick<RequestEntry, 'id' | 'callId' | 'tool' | 'arguments' | 'reason' | 'subCall'>): ParkedCall {
  const parked: ParkedCall = { id: request.id, callId: request.callId, tool: request.tool, arguments: request.arguments }
  if (request.reason !== undefined) parked.reason = request.reason
  if (request.subCall !== undefined) parked.subCall = request.subCall
  return parked
}

function recordedOf({ id, answer, by, at }: AnswerEntry): RecordedApproval {
  return by === undefined ? { id, answer, at } : { id, answer, by, at }
}

/** The key of a parent call's sub-call asks: its turn and id (a sub-call knows its parent's id, not its index). */
const subKey = (turn: number, parent: string) => `${turn}:${parent}`
