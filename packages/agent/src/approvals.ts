/**
 * Answering parked calls from code (DESIGN.md §7.2): `pendingApprovals(store)` lists the requests
 * of a session that wait for an answer; `answerApproval(store, id, answer)` writes one answer
 * into the session. Both read the store afresh, so they see what any process wrote. An answer is
 * written only after every check passed, and a refused answer writes nothing; while a run of this
 * process uses the session (`session-runs.ts`) every answer to it is refused. On a store with
 * `peek` and `appendAfter` (PostgreSQL) neither opens the session for writing: the answer is
 * stored only right after the entries it was checked against, so of two answers racing, from
 * any processes, one lands and the other is checked again (and refused as already answered). The answer takes
 * effect when the session continues (`agent.run()` without input, in any process).
 */
import type { ApprovalAnswer } from '@rein/kernel'
import { answerProblem, approvalsOf, callKey } from './approval-entries.js'
import { parkedOf, type ParkedCall } from './approval-book.js'
import type { NewSessionEntry, SessionEntry, SessionStore } from './session.js'
import { inRun } from './session-runs.js'

/** A request waiting for its answer, as `pendingApprovals` lists it. */
export interface PendingApproval extends ParkedCall {
  /** The batch (turn) and position of its call. */
  turn: number
  index: number
  /** When the call parked (ms since the epoch), when the entry says. */
  requestedAt?: number
  /** After this it can no longer be answered (ms since the epoch); absent: no limit. */
  expiresAt?: number
  /** It expired: `answerApproval` refuses it, and the continuation denies its call. */
  expired: boolean
}

/** Options of `answerApproval`. */
export interface AnswerOptions {
  /** Who answered, as they want it recorded (audit lines carry it). */
  by?: string
  /** The time of the answer (ms since the epoch; default `Date.now()`): a request past its expiry is refused. */
  now?: number
}

const ANSWERS: readonly unknown[] = ['allow-once', 'allow-session', 'deny'] satisfies ApprovalAnswer[]

// One answer at a time per store in this process: two answers to one request cannot both pass the checks.
const queues = new WeakMap<SessionStore, Promise<unknown>>()
// How often an answer is checked again when the log keeps moving between its check and its write.
const MAX_ATTEMPTS = 20

/**
 * Appends `answer` for request `id` to the session in `store` (any `SessionStore`: the JSONL file,
 * PostgreSQL). Rejects, writing nothing, when `id` names no request of the session, when it is
 * already answered, replaced by a newer request, settled (its call has a result) or expired, when
 * `answer` or `by` is not what it should be, and while a run of this process uses the session
 * (`code` `SESSION_LOCKED`: answer after `agent.run()` returns). Resolves with the stored entry.
 */
export function answerApproval(store: SessionStore, id: string, answer: ApprovalAnswer, options: AnswerOptions = {}): Promise<SessionEntry> {
  const turn = (queues.get(store) ?? Promise.resolve()).then(() => answerNow(store, id, answer, options))
  queues.set(store, turn.catch(() => undefined))
  return turn
}

async function answerNow(store: SessionStore, id: string, answer: ApprovalAnswer, options: AnswerOptions): Promise<SessionEntry> {
  if (typeof id !== 'string' || id === '') throw new TypeError(`answerApproval: the request id must be a non-empty string (got ${describe(id)}); pendingApprovals(store) lists them`)
  if (!ANSWERS.includes(answer)) throw new TypeError(`answerApproval: the answer must be "allow-once", "allow-session" or "deny" (got ${describe(answer)})`)
  const by = options?.by
  if (by !== undefined && (typeof by !== 'string' || by === '')) throw new TypeError(`answerApproval: "by" must be a non-empty string naming who answered (got ${describe(by)})`)
  const now = options?.now ?? Date.now()
  if (!Number.isFinite(now)) throw new TypeError('answerApproval: "now" must be a time in ms since the epoch')
  const entry: NewSessionEntry & { type: 'approval/answer' } = { type: 'approval/answer', id, answer, at: now }
  if (by !== undefined) entry.by = by
  // Asked again right before each write: a run may have started while the session was read.
  const check = (entries: SessionEntry[]) => {
    if (inRun(store.id)) throw runningError(store.id)
    const problem = answerProblem(approvalsOf(entries), id, now)
    if (problem !== undefined) throw new Error(`answerApproval: ${problem}; nothing was written`)
  }
  if (!store.peek || !store.appendAfter) {
    check(await store.load())
    return store.append(entry)
  }
  // A store shared by processes: check what is stored, append only right after it. When the log
  // moved on in between (another answer, a run), nothing was written: check again.
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const entries = await store.peek()
    check(entries)
    const stored = await store.appendAfter(entry, entries.at(-1)?.seq ?? 0)
    if (stored) return stored
  }
  throw new Error(`answerApproval: session ${store.id} changed under each of ${MAX_ATTEMPTS} tries; nothing was written`)
}

/**
 * The refusal of an answer to a session that a run of this process is using: the run read the
 * session's approvals when it started, and may record the very request being answered again,
 * after the answer, which would make the session unreadable. `code` is `SESSION_LOCKED`, as a
 * store's refusal of a second writer is.
 */
function runningError(session: string): Error {
  const error = new Error(`answerApproval: session ${session} is in use by a run of this process (agent.run() has not returned yet), ` +
    'which may park this call again; answer after that run returns, and the next agent.run() continues with the answer; nothing was written')
  return Object.assign(error, { code: 'SESSION_LOCKED' })
}

/** The requests of the session in `store` that wait for an answer, in log order (expired ones included, marked). */
export async function pendingApprovals(store: SessionStore, options: { now?: number } = {}): Promise<PendingApproval[]> {
  const now = options.now ?? Date.now()
  const approvals = approvalsOf(await (store.peek ? store.peek() : store.load()))
  const pending: PendingApproval[] = []
  for (const { request, answer, replacedBy } of approvals.byId.values()) {
    if (answer || replacedBy !== undefined || approvals.results.has(callKey(request.turn, request.index))) continue
    const item: PendingApproval = { ...parkedOf(request), turn: request.turn, index: request.index, expired: request.expiresAt !== undefined && now > request.expiresAt }
    if (request.at !== undefined) item.requestedAt = request.at
    if (request.expiresAt !== undefined) item.expiresAt = request.expiresAt
    pending.push(item)
  }
  return pending
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? 'a long string' : JSON.stringify(value)
  if (value === null) return 'null'
  return typeof value === 'object' || typeof value === 'function' ? `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}` : String(value)
}
