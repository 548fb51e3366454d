/**
 * What a session's approval entries say, and the rules they keep (DESIGN.md §7.2). A request
 * (`approval/request`) is for one call of an assistant message already in the log that has no
 * result yet, under a new id, or repeated as it stands (the call parked again, unanswered and
 * bound as before: it keeps its id); the latest request of a call replaces the earlier ones. An
 * answer (`approval/answer`) is for the latest request of its call, given once, before that
 * call has a result and before the request expires. `ApprovalLedger` checks these rules entry
 * by entry, and that each `tool/call` and `tool/result` stands for a call an assistant message
 * before it made (its index and id), a result once per call, so a forged or misplaced entry is
 * refused where it stands; `approvalsOf` reads them.
 */
import type { Json } from '@rein/kernel'
import type { SessionEntry, SubCallRef } from './session.js'

export type RequestEntry = Extract<SessionEntry, { type: 'approval/request' }>
export type AnswerEntry = Extract<SessionEntry, { type: 'approval/answer' }>

/** One request and, once given, its answer. */
export interface ApprovalRecord {
  request: RequestEntry
  answer?: AnswerEntry
  /** The id of a later request of the same call, which replaced this one. */
  replacedBy?: string
}

/** The approvals of a session: every request by id, the latest of each call, and which calls have a result. */
export interface Approvals {
  byId: Map<string, ApprovalRecord>
  /** The latest request of each call, by `callKey(turn, index)`. */
  byCall: Map<string, ApprovalRecord>
  /** The latest request of each call made for the call itself (not for one of its sub-calls), by `callKey`. */
  ownByCall: Map<string, ApprovalRecord>
  /** The calls with a result, by `callKey`. */
  results: Set<string>
}

export const callKey = (turn: number, index: number) => `${turn}:${index}`

/** Reads the approval entries of `entries` (which are known to keep the ledger's rules). */
export function approvalsOf(entries: readonly SessionEntry[]): Approvals {
  const approvals: Approvals = { byId: new Map(), byCall: new Map(), ownByCall: new Map(), results: new Set() }
  for (const entry of entries) {
    if (entry.type === 'tool/result') approvals.results.add(callKey(entry.turn, entry.index))
    else if (entry.type === 'approval/request') addRequest(approvals, entry)
    else if (entry.type === 'approval/answer') {
      const record = approvals.byId.get(entry.id)
      if (record && !record.answer) record.answer = entry
    }
  }
  return approvals
}

function addRequest(approvals: Approvals, request: RequestEntry): void {
  const key = callKey(request.turn, request.index)
  const before = approvals.byCall.get(key)
  if (before?.request.id === request.id) {
    // Parked again under the same id: the latest entry is the one that counts.
    before.request = request
    return
  }
  const record: ApprovalRecord = { request }
  if (before) before.replacedBy = request.id
  approvals.byId.set(request.id, record)
  approvals.byCall.set(key, record)
  if (request.subCall === undefined) approvals.ownByCall.set(key, record)
}

/** Why an answer may not be given to request `id` now, or undefined when it may. */
export function answerProblem(approvals: Approvals, id: string, now: number): string | undefined {
  const record = approvals.byId.get(id)
  if (!record) return `there is no approval request "${id}" in this session`
  const { request } = record
  const what = `approval request "${id}" (call ${request.callId}, tool "${request.tool}")`
  if (record.answer) return `${what} is already answered (${record.answer.answer}${record.answer.by === undefined ? '' : ` by ${record.answer.by}`})`
  if (record.replacedBy !== undefined) return `${what} was replaced by request "${record.replacedBy}" (the call asks again under a changed policy or arguments); answer that one`
  if (approvals.results.has(callKey(request.turn, request.index))) return `${what} is settled: its call already has a result`
  if (request.expiresAt !== undefined && now > request.expiresAt) {
    return `${what} expired at ${new Date(request.expiresAt).toISOString()}; the call will be denied when the session continues`
  }
  return undefined
}

/** JSON text with object keys sorted: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => isPlainObject(inner) ? sortedCopy(inner) : inner) ?? 'undefined'
}

/**
 * Whether `request` was for this tool, these arguments (canonically) and this rule, and for the
 * same sub-call (same id, tool and canonical arguments), or for none when `subCall` is undefined.
 */
export function isBoundTo(request: RequestEntry, tool: string, args: unknown, rule: string, subCall?: SubCallRef): boolean {
  return request.tool === tool && request.rule === rule && canonicalJson(request.arguments) === canonicalJson(args)
    && canonicalJson(request.subCall ?? null) === canonicalJson(subCall ?? null)
}

/**
 * Checks the approval rules entry by entry, in log order. `problem` answers for one entry (and
 * takes it in); a log is refused at the first entry with a problem. A session store runs it over
 * what it loads and what it appends, so it never writes an entry its load would refuse (the
 * JSONL and PostgreSQL stores do).
 */
export class ApprovalLedger {
  /** The ids and names of each turn's calls, from its assistant message. */
  private readonly calls = new Map<number, { id: string, name: string }[]>()
  private readonly approvals: Approvals = { byId: new Map(), byCall: new Map(), ownByCall: new Map(), results: new Set() }

  problem(entry: SessionEntry): string | undefined {
    switch (entry.type) {
      case 'message':
        if (entry.turn !== undefined && entry.message.role === 'assistant' && entry.message.toolCalls?.length) {
          this.calls.set(entry.turn, entry.message.toolCalls.map(({ id, name }) => ({ id, name })))
        }
        return undefined
      case 'tool/call':
        return this.callProblem('tool/call', entry.turn, entry.index, entry.call.id)
      case 'tool/result': {
        const key = callKey(entry.turn, entry.index)
        const problem = this.callProblem('tool/result', entry.turn, entry.index, entry.message.toolCallId)
          ?? (this.approvals.results.has(key) ? `tool/result for call ${entry.index} of turn ${entry.turn} comes after its call's result (a call has one)` : undefined)
        if (problem === undefined) this.approvals.results.add(key)
        return problem
      }
      case 'approval/request':
        return this.requestProblem(entry)
      case 'approval/answer':
        return this.answerProblem(entry)
      default:
        return undefined
    }
  }

  /** Why a `tool/call` or `tool/result` entry does not stand for call `index` of `turn` as its assistant message made it. */
  private callProblem(type: string, turn: number, index: number, id: string): string | undefined {
    const call = this.calls.get(turn)?.[index]
    if (call?.id === id) return undefined
    return `${type} for call ${index} of turn ${turn} names "${id}", ${call ? `but that call is "${call.id}"` : 'which no assistant message before it made'}`
  }

  private requestProblem(request: RequestEntry): string | undefined {
    const earlier = this.approvals.byId.get(request.id)
    if (earlier && (earlier.answer || earlier.replacedBy !== undefined || !isRepeat(earlier.request, request))) {
      return `approval request id "${request.id}" is used twice (an id names one request, repeated only while it stands unanswered, unchanged)`
    }
    const call = this.calls.get(request.turn)?.[request.index]
    if (!call || call.id !== request.callId) {
      return `approval request "${request.id}" names call ${request.index} of turn ${request.turn} as "${request.callId}", which no assistant message before it made`
    }
    if (call.name !== request.tool) return `approval request "${request.id}" names tool "${request.tool}", but its call is to "${call.name}"`
    if (request.subCall !== undefined && !request.subCall.id.startsWith(`${request.callId}.`)) {
      return `approval request "${request.id}" names sub-call "${request.subCall.id}", which is not a sub-call of "${request.callId}" (its id starts "${request.callId}.")`
    }
    if (this.approvals.results.has(callKey(request.turn, request.index))) {
      return `approval request "${request.id}" comes after its call's result (a settled call asks nothing)`
    }
    addRequest(this.approvals, request)
    return undefined
  }

  private answerProblem(answer: AnswerEntry): string | undefined {
    const problem = answerProblem(this.approvals, answer.id, answer.at)
    if (problem !== undefined) return `approval answer: ${problem}`
    this.approvals.byId.get(answer.id)!.answer = answer
    return undefined
  }
}

/** Whether `again` repeats `request`: the same call, tool, arguments, rule and expiry. */
function isRepeat(request: RequestEntry, again: RequestEntry): boolean {
  return request.turn === again.turn && request.index === again.index && request.callId === again.callId &&
    request.expiresAt === again.expiresAt && isBoundTo(request, again.tool, again.arguments, again.rule)
}

function isPlainObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The same object with its keys in sorted order (own data properties, `__proto__` included). */
function sortedCopy(object: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(Object.keys(object).sort().map((key) => [key, object[key]!]))
}
