/**
 * The session log (DESIGN.md §3, contract): an append-only sequence of entries `{ seq, type }`
 * with types `message`, `tool/call`, `tool/result` and `turn/end`. A store assigns `seq` in
 * the order `append` was called and resolves an append only once the entry is durable (for
 * the in-memory store: stored). `memorySession()` keeps entries in this process only.
 */
import { deepFreeze, type ContentBlock, type Message, type ToolExecutionResult, type ToolMessage } from '@rein/kernel'

/** A call as it was started: the id and name the model gave, the arguments it ran with. */
export interface LoggedCall {
  id: string
  name: string
  arguments: unknown
}

/** How a batch ended: results committed, the run aborted, or repaired on resume. */
export type TurnOutcome = 'committed' | 'aborted' | 'repaired'

/** One entry of the log. `turn` numbers the assistant messages of the session from 1. */
export type SessionEntry =
  | { seq: number, type: 'message', message: Message, turn?: number }
  | { seq: number, type: 'tool/call', turn: number, index: number, call: LoggedCall }
  | {
    seq: number, type: 'tool/result', turn: number, index: number, message: ToolMessage,
    code?: string, additionalContexts?: ContentBlock[], concludesTurn?: true
  }
  | { seq: number, type: 'turn/end', turn: number, outcome: TurnOutcome }

type WithoutSeq<T> = T extends unknown ? Omit<T, 'seq'> : never

/** An entry before the store numbered it. */
export type NewSessionEntry = WithoutSeq<SessionEntry>

/**
 * Where a session lives. Implementations: `memorySession()`, `jsonlSession(path)`.
 * `append` must keep call order, assign `seq` (1, 2, 3...), and resolve only when the entry
 * is durable; a failed append rejects (and the store may refuse every later one), never drops.
 */
export interface SessionStore {
  /** Every entry so far, in `seq` order (copies: changing them changes nothing stored). */
  load(): Promise<SessionEntry[]>
  /** Appends one entry; resolves with it, numbered, once it is durable. */
  append(entry: NewSessionEntry): Promise<SessionEntry>
  /** Waits for pending appends and releases resources. Optional. */
  close?(): Promise<void>
}

/**
 * A session kept in memory: survives runs and agents in this process, not a restart. An
 * appended entry is stored as given, deep-frozen (so neither side can change it later);
 * `load` returns copies.
 */
export function memorySession(): SessionStore {
  const entries: SessionEntry[] = []
  return {
    async load() {
      return JSON.parse(JSON.stringify(entries))
    },
    async append(entry) {
      const stored = deepFreeze({ ...entry, seq: entries.length + 1 } as SessionEntry)
      entries.push(stored)
      return stored
    },
  }
}

/** The `tool/result` entry for call `index` of `turn`: what the model is shown, plus its code. */
export function resultEntry(turn: number, index: number, callId: string, result: ToolExecutionResult): NewSessionEntry {
  const code = result.isError ? result.error.info?.code : undefined
  return {
    type: 'tool/result', turn, index,
    message: { role: 'tool', toolCallId: callId, content: result.content, isError: result.isError },
    ...(code ? { code } : {}),
    ...(result.additionalContexts?.length ? { additionalContexts: result.additionalContexts } : {}),
    ...(!result.isError && result.concludesTurn ? { concludesTurn: true as const } : {}),
  }
}
