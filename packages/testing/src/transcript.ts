/**
 * `validateTranscript(messages)`: would a provider accept this conversation? Every tool call
 * of an assistant message must be answered by exactly one tool message carrying its id, in
 * the order of the calls, right after that message and before any other assistant or user
 * message; no tool message may answer nothing. Returns the problems found (empty = valid).
 */
import { isContent, type Message } from '@rein/kernel'

/** The problems of `messages` as short sentences; `[]` when a provider would accept it. */
export function validateTranscript(messages: readonly Message[]): string[] {
  const problems: string[] = []
  let expected: { id: string, from: number }[] = []
  const unanswered = (at: string) => {
    for (const call of expected) problems.push(`tool call "${call.id}" of message #${call.from} has no result ${at}`)
    expected = []
  }
  messages.forEach((message, i) => {
    switch (message?.role) {
      case 'tool': {
        const next = expected.shift()
        if (!next) {
          problems.push(`message #${i}: tool result "${message.toolCallId}" answers no pending tool call`)
        } else if (next.id !== message.toolCallId) {
          problems.push(`message #${i}: tool result "${message.toolCallId}" where the result of "${next.id}" was due`)
        }
        if (!isContent(message.content) || message.content.length === 0) {
          problems.push(`message #${i}: tool result "${message.toolCallId}" has no well-formed content`)
        }
        break
      }
      case 'assistant': {
        unanswered(`before message #${i}`)
        const calls = message.toolCalls ?? []
        const seen = new Set<string>()
        for (const call of calls) {
          if (typeof call?.id !== 'string' || call.id === '') problems.push(`message #${i}: a tool call has no id`)
          else if (seen.has(call.id)) problems.push(`message #${i}: tool call id "${call.id}" appears twice`)
          seen.add(call?.id)
        }
        expected = calls.map((call) => ({ id: call?.id, from: i }))
        break
      }
      case 'user':
      case 'system':
        unanswered(`before message #${i}`)
        break
      default:
        problems.push(`message #${i}: unknown role ${JSON.stringify((message as { role?: unknown })?.role)}`)
    }
  })
  unanswered('at the end of the transcript')
  return problems
}
