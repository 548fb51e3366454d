/**
 * The approval service behind `ctx.approval`. Requests are answered one at a time, in the
 * order they arrive (the scheduler starts calls, and so their pre-execute, in model order).
 * In this order, each request is answered by the first of:
 *   1. the session's "allow-session" answers (`exec.session.state`, DESIGN.md §7.1): a call passes
 *      when every one of its keys (what it asks about: an asking rule, or an exact call the default
 *      asked about) is remembered there. They live in the session only: another session served
 *      by the same harness never sees them, and a call without a session remembers nothing;
 *   2. the answer recorded in the session for this call (`exec.session.approvals`, §7.2), bound to
 *      the call's tool, canonical arguments and keys, so a changed policy asks again;
 *   3. `'park'`, when the session parks what nobody has answered (`approvals.mode === 'park'`);
 *   4. the asker (a person, a test), which may also reply `'park'`; with none, a deny.
 * An answer is noted on `exec.meta.approval` (`{ answer, at, by?, id? }`) for observers (the audit).
 */
import type { ApprovalAnswer, ApprovalReply, ApprovalRequest, ApprovalService, Json, SessionState, ToolExec } from '@rein/kernel'

export type { ApprovalAnswer, ApprovalReply, ApprovalRequest }

/**
 * Asks a person (or a test) about one call. Called one request at a time; may watch
 * `request.exec.signal` to stop asking when the call is aborted; `'park'` leaves the call waiting.
 */
export type Ask = (request: ApprovalRequest) => ApprovalReply | Promise<ApprovalReply>

export interface ApprovalOptions {
  /** The asker to use for a request, looked up when its turn comes; undefined means deny. */
  asker: () => Ask | undefined
  /** What an "allow-session" answer to a request covers; a request is covered when all its keys are remembered. */
  keysOf: (request: ApprovalRequest) => readonly string[]
  /** Reports, once, that requests are denied because no asker is configured. */
  warn: (message: string) => void
  /** The plugin name the session state is kept under (default `permission-guard`). */
  plugin?: string
}

const REPLIES: readonly unknown[] = ['allow-once', 'allow-session', 'deny', 'park'] satisfies ApprovalReply[]

/** The facts of one answer, as `exec.meta.approval` carries them and the session state remembers them. */
type Answered = { answer: ApprovalAnswer, at: number, by?: string, id?: string }

/** Creates the service. Its queue belongs to this instance; every answer it remembers, to the call's session. */
export function createApproval(options: ApprovalOptions): ApprovalService {
  const plugin = options.plugin ?? 'permission-guard'
  let tail: Promise<unknown> = Promise.resolve()
  let warned = false

  const decide = async (request: ApprovalRequest): Promise<ApprovalReply> => {
    const { exec } = request
    const keys = options.keysOf(request)
    const state = exec.session?.state
    const covering = state && keys.length > 0 ? coveredBy(state, plugin, keys) : undefined
    if (covering) return noted(exec, { ...covering, answer: 'allow-session' })
    const approvals = exec.session?.approvals
    const recorded = approvals?.answered(request, keys.join('\n'))
    if (recorded) {
      const facts: Answered = { answer: recorded.answer, at: recorded.at, id: recorded.id }
      if (recorded.by !== undefined) facts.by = recorded.by
      if (recorded.answer === 'allow-session' && state) remember(state, plugin, keys, facts)
      return noted(exec, facts)
    }
    if (exec.signal.aborted) return 'deny'
    if (approvals?.mode === 'park') return 'park'
    const ask = options.asker()
    if (!ask) {
      if (!warned) options.warn('a call needs approval but no asker is configured, so it is denied (pass `ask` to createPermissionGuard or provide ctx.approvalPrompt)')
      warned = true
      return 'deny'
    }
    const reply = await untilAborted(Promise.resolve().then(() => ask(request)), exec.signal)
    if (!REPLIES.includes(reply)) {
      throw new Error(`the asker answered ${JSON.stringify(reply)}; expected "allow-once", "allow-session", "deny" or "park"`)
    }
    if (reply === 'park') return reply
    const facts: Answered = { answer: reply, at: Date.now() }
    if (reply === 'allow-session' && state) remember(state, plugin, keys, facts)
    return noted(exec, facts)
  }

  return {
    request(request) {
      const turn = tail.then(() => decide(request))
      tail = turn.catch(() => undefined)
      return turn
    },
  }
}

/** The session state key remembering one "allow-session" key. */
const stateKey = (key: string) => `allow-session:${key}`

/** The answer that remembered the first of `keys`, when every one of them is remembered in the session. */
function coveredBy(state: SessionState, plugin: string, keys: readonly string[]): Answered | undefined {
  let first: Answered | undefined
  for (const key of keys) {
    const value = state.get(plugin, stateKey(key))
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
    first ??= answeredOf(value)
  }
  return first
}

function answeredOf(value: { [key: string]: Json }): Answered {
  const facts: Answered = { answer: 'allow-session', at: typeof value.at === 'number' ? value.at : 0 }
  if (typeof value.by === 'string') facts.by = value.by
  if (typeof value.id === 'string') facts.id = value.id
  return facts
}

/** Remembers `keys` in the session (durable before this call's result commits). */
function remember(state: SessionState, plugin: string, keys: readonly string[], facts: Answered): void {
  const value: { [key: string]: Json } = { at: facts.at }
  if (facts.by !== undefined) value.by = facts.by
  if (facts.id !== undefined) value.id = facts.id
  for (const key of keys) state.set(plugin, stateKey(key), value)
}

/** Puts the answer on `exec.meta.approval` for observers; returns the answer. */
function noted(exec: ToolExec, facts: Answered): ApprovalAnswer {
  const approval: { [key: string]: Json } = { answer: facts.answer, at: facts.at }
  if (facts.by !== undefined) approval.by = facts.by
  if (facts.id !== undefined) approval.id = facts.id
  exec.meta.approval = approval
  return facts.answer
}

/** The asker's reply, or 'deny' as soon as the call's signal aborts. */
function untilAborted(reply: Promise<ApprovalReply>, signal: AbortSignal): Promise<ApprovalReply> {
  let onAbort!: () => void
  const aborted = new Promise<ApprovalReply>((resolve) => {
    onAbort = () => resolve('deny')
    signal.addEventListener('abort', onAbort, { once: true })
  })
  return Promise.race([reply, aborted]).finally(() => signal.removeEventListener('abort', onAbort))
}
