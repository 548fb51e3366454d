/**
 * One MCP session's facts (DESIGN.md §7.1, §7.2), kept in a session store of its own: the
 * plugins' per-session state (`exec.session.state`, e.g. permission-guard's "allow for the
 * session" answers, which so never cover another MCP session) and its approvals
 * (`exec.session.approvals`).
 *
 * Under `approvals: 'park'`, an ask of a client that cannot be asked (no elicitation) parks: the
 * session's `McpSession` records the request here (an assistant message naming the call, then an
 * `approval/request`, as the agent writes them) and refuses the call naming the request's id.
 * `answerApproval` (`rein approve <id> --session <file>`) answers it in the store. The MCP client
 * cannot be called back, so the answer waits for the client to call again: the next call of the
 * same tool with the same canonical arguments, asked under the same rule, meets the answer (allow
 * runs it, deny refuses it), and its outcome settles the request (a `tool/result` entry saying
 * how it ended, without the tool's output). An unanswered request is named again, not repeated.
 * The store is read at the first call, and then kept in step with what this process appends; a
 * call reads it afresh while a request waits, so an answer written by `rein approve` is seen.
 * The store is closed whenever nothing is being read or written (a file store then frees its
 * writer lock, so `rein approve` can write the answer while the MCP session stays open); a
 * write that finds the lock taken tries again a few times before it fails. Once the session
 * ends (`end()`), nothing more is read or written, so its file can be removed.
 */
import { randomUUID } from 'node:crypto'
import type { ApprovalRequest, Json, RecordedApproval, SessionApprovals, SessionState, ToolExecutionResult } from '@rein/kernel'
import { PluginState, type NewSessionEntry, type SessionEntry, type SessionStore } from '@rein/agent'

type RequestEntry = Extract<SessionEntry, { type: 'approval/request' }>
type AnswerEntry = Extract<SessionEntry, { type: 'approval/answer' }>

interface RecordOf {
  request: RequestEntry
  answer?: AnswerEntry
  settled: boolean
}

/** How an MCP session treats an ask nobody can answer now. */
export interface FactsOptions {
  /** `'park'`: record a request and refuse naming it (clients without elicitation only); `'ask'`: refuse. */
  approvals: 'ask' | 'park'
  /** A request not answered within this many ms can no longer be answered (absent: no limit). */
  expiresAfterMs?: number
  /** Whether the client can be asked (it declared elicitation): then asks go to it, never parked. */
  canAsk(): boolean
  /** Reports a failed write (the call's outcome stands; the store is the caller's to mend). */
  warn(message: string): void
}

export class SessionFacts implements SessionState, SessionApprovals {
  /** The plugins' state, as the agent keeps it: its entries go through `append` (which warns of a failure). */
  private readonly state = new PluginState((entry) => this.append(entry))
  private records = new Map<string, RecordOf>()
  private turn = 0
  /** What each running call asked (by call id): what its park binds to. */
  private readonly asked = new Map<string, { rule: string, reason?: string }>()
  /** The answered request each running call took (by call id): settled by that call's outcome. */
  private readonly taken = new Map<string, RecordOf>()
  private tail: Promise<unknown> = Promise.resolve()
  private busy = 0
  private loaded: Promise<void> | undefined
  /** The session ended: nothing more is read or written. */
  private over = false

  constructor(readonly store: SessionStore, private readonly options: FactsOptions) {}

  get mode(): 'park' | 'ask' {
    return this.options.approvals === 'park' && !this.options.canAsk() ? 'park' : 'ask'
  }

  /** Reads the store (once; again with `fresh`, for answers written by another process). */
  ready(fresh = false): Promise<void> {
    if (this.loaded && !fresh) return this.loaded
    const loading = this.serial(() => this.store.load()).then((entries) => this.read(entries))
    // A store that could not be read is tried again at the next call.
    this.loaded = loading.catch((error: unknown) => {
      this.loaded = undefined
      throw error
    })
    return this.loaded
  }

  /** Whether a request of this session waits for an answer (a call should read the store afresh first). */
  get waiting(): boolean {
    for (const record of this.records.values()) if (!record.answer && !record.settled) return true
    return false
  }

  get(plugin: string, key: string): Json | undefined {
    return this.state.get(plugin, key)
  }

  set(plugin: string, key: string, value: Json): void {
    this.state.set(plugin, key, value)
  }

  answered({ exec, reason }: ApprovalRequest, rule: string): RecordedApproval | undefined {
    this.asked.set(exec.id, reason === undefined ? { rule } : { rule, reason })
    const args = canonicalJson(exec.arguments)
    for (const record of [...this.records.values()].reverse()) {
      const { request, answer } = record
      if (!answer || record.settled || [...this.taken.values()].includes(record)) continue
      if (request.tool !== exec.name || request.rule !== rule || canonicalJson(request.arguments) !== args) continue
      this.taken.set(exec.id, record)
      return answer.by === undefined ? { id: answer.id, answer: answer.answer, at: answer.at } : { id: answer.id, answer: answer.answer, by: answer.by, at: answer.at }
    }
    return undefined
  }

  /**
   * Call `callId` parked: the id of the request standing for the same tool, arguments and rule
   * (unanswered, unexpired), or of a new one recorded now (resolves once the store is closed
   * again, unless another call is using it).
   */
  async park(callId: string, tool: string, args: { [key: string]: Json }): Promise<string> {
    const { rule, reason } = this.asked.get(callId) ?? { rule: '' }
    const now = Date.now()
    const wanted = canonicalJson(args)
    for (const { request, answer, settled } of this.records.values()) {
      if (answer || settled || (request.expiresAt !== undefined && now > request.expiresAt)) continue
      if (request.tool === tool && request.rule === rule && canonicalJson(request.arguments) === wanted) return request.id
    }
    const turn = ++this.turn
    const request: NewSessionEntry & { type: 'approval/request' } = {
      type: 'approval/request', id: `apr_${randomUUID()}`, turn, index: 0, callId, tool, arguments: args, rule, at: now,
    }
    if (reason !== undefined) request.reason = reason
    if (this.options.expiresAfterMs !== undefined) request.expiresAt = now + this.options.expiresAfterMs
    await this.append({ type: 'message', turn, message: { role: 'assistant', content: '', toolCalls: [{ id: callId, name: tool, arguments: JSON.stringify(args) }] } })
    const stored = await this.append(request) as RequestEntry
    this.records.set(stored.id, { request: stored, settled: false })
    // The refusal names the request: by the time the client reads it, the store is closed (its
    // lock free), so `rein approve` can answer at once.
    await this.tail
    return stored.id
  }

  /**
   * The MCP session ended: from now on nothing is read or written (a call still running when it
   * ended records nothing more). Resolves once the last read or write is done and the store closed.
   */
  async end(): Promise<void> {
    this.over = true
    await this.tail
  }

  /** Call `callId` ended: settles the answered request it took (if any), and forgets what it asked. */
  async ended(callId: string, result: ToolExecutionResult): Promise<void> {
    this.asked.delete(callId)
    const record = this.taken.get(callId)
    if (!record || this.over) return
    this.taken.delete(callId)
    record.settled = true
    const { request } = record
    const how = result.isError ? `failed (${result.error.info?.code ?? 'TOOL_FAILED'})` : 'succeeded'
    const text = `MCP call ${callId}, answered by request ${request.id}, ${how}`
    const entry: NewSessionEntry = {
      type: 'tool/result', turn: request.turn, index: request.index,
      message: { role: 'tool', toolCallId: request.callId, content: [{ type: 'text', text }], isError: result.isError },
    }
    if (result.isError && result.error.info?.code !== undefined) (entry as { code?: string }).code = result.error.info.code
    await this.append(entry).catch((error: unknown) => this.options.warn(`could not record the outcome of ${callId} in ${this.store.id}: ${String(error)}`))
  }

  private read(entries: readonly SessionEntry[]): void {
    this.state.load(entries)
    const records = new Map<string, RecordOf>()
    const byCall = new Map<string, RecordOf>()
    let turn = 0
    for (const entry of entries) {
      if (entry.type === 'approval/request') {
        const record: RecordOf = { request: entry, settled: false }
        records.set(entry.id, record)
        byCall.set(`${entry.turn}:${entry.index}`, record)
      } else if (entry.type === 'approval/answer') {
        const record = records.get(entry.id)
        if (record && !record.answer) record.answer = entry
      } else if (entry.type === 'tool/result') {
        const record = byCall.get(`${entry.turn}:${entry.index}`)
        if (record) record.settled = true
      }
      if ('turn' in entry && typeof entry.turn === 'number') turn = Math.max(turn, entry.turn)
    }
    // A request a running call took stays taken: the same record object is kept.
    for (const [id, record] of records) {
      const kept = this.records.get(id)
      if (kept) Object.assign(kept, { answer: record.answer, settled: kept.settled || record.settled })
      else this.records.set(id, record)
    }
    this.turn = Math.max(this.turn, turn)
  }

  /** Appends one entry after those before it, in order. */
  private append(entry: NewSessionEntry): Promise<SessionEntry> {
    if (this.over) return Promise.reject(ended(this.store.id))
    const done = this.serial(() => this.store.append(entry))
    done.catch((error: unknown) => this.options.warn(`could not write to the session ${this.store.id}: ${String(error)}`))
    return done
  }

  /**
   * Runs `op` on the store after every operation before it; once none is left, closes the store
   * (a file store's lock is free until the next one). An op that finds the lock taken (another
   * writer, such as `rein approve`, holds it for a moment) is tried again, up to 40 times, 25 ms apart.
   */
  private serial<T>(op: () => Promise<T>): Promise<T> {
    if (this.over) return Promise.reject(ended(this.store.id))
    this.busy++
    const attempt = async (tries: number): Promise<T> => {
      try {
        return await op()
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'SESSION_LOCKED' || tries >= 40) throw error
        await new Promise((resolve) => setTimeout(resolve, 25))
        return attempt(tries + 1)
      }
    }
    const done = this.tail.then(() => attempt(1))
    this.tail = done.catch(() => undefined).then(async () => {
      if (--this.busy === 0) await this.store.close?.().catch(() => {})
    })
    return done
  }
}

/** The error of a read or write after the session ended. */
function ended(store: string): Error {
  return new Error(`the MCP session ended: its store ${store} is no longer read or written`)
}

/** JSON text with object keys sorted: equal values give equal text. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => typeof inner === 'object' && inner !== null && !Array.isArray(inner)
    ? Object.fromEntries(Object.keys(inner).sort().map((key) => [key, (inner as Record<string, unknown>)[key]]))
    : inner) ?? 'undefined'
}
