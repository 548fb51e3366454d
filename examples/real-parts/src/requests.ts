/**
 * Reading a received request: what the client sent back for the model's last tool calls.
 * A scripted step uses it to answer from the tool results, a test to check their order.
 */
import type { ReceivedRequest } from './chat-server.js'
import type { WireMessage } from './chat-wire.js'

/** The tool messages after the request's last assistant message, in the order they were sent. */
export function toolMessages(request: ReceivedRequest): { toolCallId: string | undefined, content: string }[] {
  const messages: WireMessage[] = request.body.messages
  let last = -1
  messages.forEach((message, i) => { if (message.role === 'assistant') last = i })
  return messages.slice(last + 1)
    .filter((message) => message.role === 'tool')
    .map((message) => ({
      toolCallId: message.tool_call_id,
      content: typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    }))
}
