/**
 * From log to conversation. The messages a provider is shown are rebuilt from the entries:
 * each assistant message is followed by the results of its calls in call order, wherever
 * those results sit in the log (repairs are appended later). `unanswered` finds the calls
 * that have no result, and whether each was logged as started.
 */
import type { AssistantMessage, Message, ToolCall, ToolMessage } from '@rein/kernel'
import type { LoggedCall, SessionEntry } from './session.js'

const key = (turn: number, index: number) => `${turn}:${index}`

/** The conversation recorded in `entries`. */
export function buildMessages(entries: readonly SessionEntry[]): Message[] {
  // Each turn's results by call index: asked per model request, so no string key is made per result.
  const results = new Map<number, ToolMessage[]>()
  for (const entry of entries) {
    if (entry.type !== 'tool/result') continue
    let turn = results.get(entry.turn)
    if (turn === undefined) results.set(entry.turn, turn = [])
    turn[entry.index] = entry.message
  }
  const messages: Message[] = []
  for (const entry of entries) {
    if (entry.type !== 'message') continue
    messages.push(entry.message)
    const calls = entry.message.role === 'assistant' ? entry.message.toolCalls ?? [] : []
    const turn = entry.turn === undefined ? undefined : results.get(entry.turn)
    if (turn === undefined) continue
    for (let index = 0; index < calls.length; index++) {
      const result = turn[index]
      if (result) messages.push(result)
    }
  }
  return messages
}

/** A call of the log without a durable result. `started` holds its `tool/call` when one was logged. */
export interface Unanswered {
  turn: number
  index: number
  call: ToolCall
  started?: LoggedCall
}

/** Every call of the log's assistant messages that has no `tool/result`, in log and call order. */
export function unanswered(entries: readonly SessionEntry[]): Unanswered[] {
  const answered = new Set<string>()
  const started = new Map<string, LoggedCall>()
  for (const entry of entries) {
    if (entry.type === 'tool/result') answered.add(key(entry.turn, entry.index))
    if (entry.type === 'tool/call') started.set(key(entry.turn, entry.index), entry.call)
  }
  const out: Unanswered[] = []
  for (const entry of entries) {
    if (entry.type !== 'message' || entry.message.role !== 'assistant' || entry.turn === undefined) continue
    const calls = (entry.message as AssistantMessage).toolCalls ?? []
    calls.forEach((call, index) => {
      const k = key(entry.turn!, index)
      if (!answered.has(k)) out.push({ turn: entry.turn!, index, call, started: started.get(k) })
    })
  }
  return out
}

/** The highest turn number in the log (0 for a new session). */
export function lastTurn(entries: readonly SessionEntry[]): number {
  let turn = 0
  for (const entry of entries) {
    const at = turnOf(entry)
    if (at !== undefined && at > turn) turn = at
  }
  return turn
}

/** The turn an entry belongs to; none for a `state` entry, an approval's answer or a message outside any turn. */
export function turnOf(entry: SessionEntry): number | undefined {
  return entry.type === 'state' || entry.type === 'approval/answer' ? undefined : entry.turn
}
