/**
 * The session log (DESIGN.md §3, contract): an append-only sequence of entries `{ seq, type }`
 * with types `message`, `tool/call`, `tool/result` and `turn/end`. A store assigns `seq` in
 * the order `append` was called and resolves an append only once the entry is durable (for
 * the in-memory store: stored). `memorySession()` keeps entries in this process only.
 * A `state` entry holds one value of a plugin's per-session state (`exec.session.state`, DESIGN.md
 * §7.1): `plugin`, `key` and the JSON `value`; the latest entry for a key wins.
 * `approval/request` and `approval/answer` entries hold durable approvals (DESIGN.md §7.2,
 * `approval-entries.ts`): a call that parked, bound to its tool, canonical arguments and the
 * asking rule, and the one answer a person gave it.
 * The agent also writes the facts a timeline needs (all optional: older sessions lack them):
 * `at` on every entry (ms since the epoch, when appended), `mode` on `tool/call` (as classified
 * when the call started), and `timing` (`CallTiming`) and `meta` (plugins' facts) on `tool/result`.
 */
import { randomUUID } from 'node:crypto'
import {
  codeOf, deepFreeze, type ApprovalAnswer, type ContentBlock, type ExecutionMode, type Json, type Message, type ToolCall, type ToolExecutionResult, type ToolMessage,
} from '@rein/kernel'
import type { CallTiming, TurnOutcome } from '@rein/types'
import { tellsHead } from './store-head.js'

/**
 * A sub-call that asked on behalf of its parent call (a `tools.<name>()` of `run_code`): its id
 * (`<parent id>.<n>`, n its order in the parent's run), tool and parsed arguments. The parent's
 * request carries it: the parent is what parks and continues, the sub-call is what is approved.
 */
export interface SubCallRef {
  id: string
  tool: string
  arguments: { [key: string]: Json }
}

/** A call as it was started: the id and name the model gave, the arguments it ran with. */
export interface LoggedCall {
  id: string
  name: string
  arguments: unknown
}

/**
 * One entry of the log. `turn` numbers the assistant messages of the session from 1. `at`
 * (ms since the epoch) is when the agent appended it.
 */
export type SessionEntry =
  | { seq: number, type: 'message', message: Message, turn?: number, at?: number }
  | { seq: number, type: 'tool/call', turn: number, index: number, call: LoggedCall, mode?: ExecutionMode, at?: number }
  | {
    seq: number, type: 'tool/result', turn: number, index: number, message: ToolMessage,
    code?: string, additionalContexts?: ContentBlock[], concludesTurn?: true,
    /** The failure ended the run (`ToolFailure.endsRun`): a continuation of its batch ends the run too. */
    endsRun?: true,
    timing?: CallTiming, meta?: Record<string, Json>, at?: number,
    /** The call's value, kept when a later call of its batch references it (`${id.result}`), for a continuation to substitute. */
    value?: Json
  }
  | { seq: number, type: 'turn/end', turn: number, outcome: TurnOutcome, at?: number }
  | { seq: number, type: 'state', plugin: string, key: string, value: Json, at?: number }
  | {
    seq: number, type: 'approval/request', id: string, turn: number, index: number, callId: string, tool: string,
    /** The parsed arguments the call would run with. */
    arguments: { [key: string]: Json },
    /** What the approval service said asked (its rule): an answer applies only while the call asks under the same one. */
    rule: string, reason?: string,
    /** After this (ms since the epoch) the request can no longer be answered, and the continuation denies the call. */
    expiresAt?: number, at?: number,
    /** When a sub-call of this call asked (`run_code`'s): that sub-call, which the answer is for (`SubCallRef`). */
    subCall?: SubCallRef
  }
  | { seq: number, type: 'approval/answer', id: string, answer: ApprovalAnswer, by?: string, at: number }

type WithoutSeq<T> = T extends unknown ? Omit<T, 'seq'> : never

/** An entry before the store numbered it. */
export type NewSessionEntry = WithoutSeq<SessionEntry>

/**
 * Where a session lives. Implementations: `memorySession()`, `jsonlSession(path)`, `postgresSession(...)`.
 * `append` must keep call order, assign `seq` (1, 2, 3...), and resolve only when the entry
 * is durable; a failed append rejects (and the store may refuse every later one), never drops.
 * The agent issues a batch's result appends without waiting for the earlier ones to resolve,
 * so a store whose write failed should refuse every later append (the JSONL and PostgreSQL
 * stores do): then nothing lands after a gap.
 */
export interface SessionStore {
  /**
   * Names the session (`exec.session.id`, and so every call's idempotency key): the same for
   * every store opened on this session, in any process. A file store's is its path as given;
   * PostgreSQL's the session id; each `memorySession()` has a unique one.
   */
  readonly id: string
  /** Every entry so far, in `seq` order (copies: changing them changes nothing stored). */
  load(): Promise<SessionEntry[]>
  /** Appends one entry; resolves with it, numbered, once it is durable. */
  append(entry: NewSessionEntry): Promise<SessionEntry>
  /** Waits for pending appends and releases resources. Optional. */
  close?(): Promise<void>
  /**
   * Optional, for a store many processes share (PostgreSQL), with `appendAfter`: every entry as
   * stored now, read without opening the session for writing (no lock taken or kept).
   * `pendingApprovals` and `answerApproval` use the pair when a store has it.
   */
  peek?(): Promise<SessionEntry[]>
  /**
   * Optional, with `peek`: appends `entry` as entry `after + 1` only if entry `after` is still the
   * last one stored (0: the session is empty) and no other store holds the session for writing.
   * Resolves with the entry once durable, or with `undefined`, having written nothing, when the
   * log has moved on; rejects, writing nothing, when another store holds the session.
   */
  appendAfter?(entry: NewSessionEntry, after: number): Promise<SessionEntry | undefined>
}

/**
 * A session kept in memory: survives runs and agents in this process, not a restart. An
 * appended entry is stored as given, deep-frozen (so neither side can change it later);
 * `load` returns copies.
 */
export function memorySession(): SessionStore {
  const entries: SessionEntry[] = []
  const store = (entry: NewSessionEntry, owned = false): SessionEntry => {
    const seq = entries.length + 1
    // An owned entry is kept itself; any other is copied. Object.assign, not a spread: V8 gave each
    // spread copy of an entry a hidden class of its own (a few hundred bytes apiece, kept for the
    // whole session); assign shares them.
    const stored = owned
      ? Object.freeze(Object.assign(entry, { seq }) as SessionEntry)
      : deepFreeze(Object.assign({}, entry, { seq }) as SessionEntry)
    entries.push(stored)
    return stored
  }
  const session: SessionStore = {
    id: `memory:${randomUUID()}`,
    async load() {
      return JSON.parse(JSON.stringify(entries))
    },
    append(entry) {
      try {
        return Promise.resolve(store(entry))
      } catch (error) {
        return Promise.reject(error)
      }
    },
  }
  inPlace.set(session, { append: session.append, store })
  tellsHead(session, () => entries.length)
  return session
}

// Each `memorySession()`'s append without a promise, for the agent's `SessionLog` (docs/performance.md, "Memory appends in place").
const inPlace = new WeakMap<SessionStore, { append: SessionStore['append'], store: InPlaceStore }>()

/**
 * A memory store's append in place. `owned`: the caller (the agent, for the `tool/call` and
 * `tool/result` entries it builds: `callEntry`, `resultEntry`) made the entry for this append
 * alone and deep-froze every value of it, so the store keeps that very object, given its `seq`
 * and frozen, instead of a copy walked again (docs/performance.md, "Entries built frozen").
 */
export type InPlaceStore = (entry: NewSessionEntry, owned?: boolean) => SessionEntry

/**
 * The append of a store that stores an entry as it is called (a `memorySession()` whose `append`
 * is still its own): it returns the stored entry, or throws; undefined for every other store.
 * Internal to the agent.
 */
export function inPlaceAppend(store: SessionStore): InPlaceStore | undefined {
  const own = inPlace.get(store)
  return own && store.append === own.append ? own.store : undefined
}

/**
 * The `tool/call` entry for call `index` of `turn`, stamped now: the call as it runs (`args`,
 * the arguments after any references were put in) and its mode when known. Every value of it is
 * deep-frozen (`args` in place, as storing it would), so a memory store need not walk it (`InPlaceStore`).
 */
export function callEntry(turn: number, index: number, call: ToolCall, args: unknown, mode: ExecutionMode | undefined): NewSessionEntry {
  const entry: NewSessionEntry & { type: 'tool/call' } = {
    type: 'tool/call', turn, index, call: Object.freeze({ id: call.id, name: call.name, arguments: deepFreeze(args) }), at: Date.now(),
  }
  if (mode !== undefined) entry.mode = mode
  return entry
}

/**
 * The `tool/result` entry for call `index` of `turn`: what the model is shown, its code, the
 * facts plugins recorded (`result.meta`) and, for a call this process ran, its `timing`; with
 * `keepValue`, a success's value (a later call of the batch references it). Every value of it
 * is deep-frozen (in place, as storing it would: the kernel's results already are), so a memory
 * store need not walk it (`InPlaceStore`).
 */
export function resultEntry(turn: number, index: number, callId: string, result: ToolExecutionResult, timing?: CallTiming, keepValue = false): NewSessionEntry {
  const entry: NewSessionEntry & { type: 'tool/result' } = {
    type: 'tool/result', turn, index,
    message: Object.freeze({ role: 'tool', toolCallId: callId, content: deepFreeze(result.content), isError: result.isError }),
  }
  const code = codeOf(result)
  if (code) entry.code = code
  if (result.additionalContexts?.length) entry.additionalContexts = deepFreeze(result.additionalContexts)
  if (!result.isError && result.concludesTurn) entry.concludesTurn = true
  if (result.isError && result.endsRun) entry.endsRun = true
  if (timing) entry.timing = deepFreeze(timing)
  if (result.meta && Object.keys(result.meta).length > 0) entry.meta = deepFreeze(result.meta)
  if (keepValue && !result.isError) entry.value = deepFreeze(result.value)
  return entry
}
