/**
 * Content attributes, recorded only with `captureContent`: rein's messages in the GenAI
 * conventions' message shape (`{ role, parts }`, parts `text`, `tool_call`,
 * `tool_call_response`). These build the values; `contentText` (limit.ts) redacts, cuts and
 * writes each as one JSON string (span attributes hold no nested objects).
 */
import type { AssistantMessage, ContentBlock, Message } from '@rein/types'

type Part =
  | { type: 'text', content: string }
  | { type: 'tool_call', id: string, name: string, arguments: unknown }
  | { type: 'tool_call_response', id: string, response: unknown }
  | { type: 'blob', modality: 'image', mime_type: string }

/** JSON text of `value`, or its `String()` when it has none. */
export function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

function blocks(content: string | readonly ContentBlock[]): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', content }]
  return content.map((block): Part => block.type === 'text'
    ? { type: 'text', content: block.text }
    : { type: 'blob', modality: 'image', mime_type: block.mimeType })
}

function parts(message: Message): Part[] {
  switch (message.role) {
    case 'system':
    case 'user':
      return blocks(message.content)
    case 'assistant':
      return [
        ...blocks(message.content),
        ...(message.toolCalls ?? []).map((call): Part => ({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments })),
      ]
    case 'tool':
      return [{ type: 'tool_call_response', id: message.toolCallId, response: blocks(message.content) }]
    default: {
      const unknown: never = message
      return [{ type: 'text', content: json(unknown) }]
    }
  }
}

/** `gen_ai.input.messages`: what the model was shown. */
export function inputMessages(messages: readonly Message[]): unknown {
  return (messages.map((message) => ({ role: message.role, parts: parts(message) })))
}

/** `gen_ai.output.messages`: the answer, with the finish reason when the provider gave one. */
export function outputMessages(message: AssistantMessage, finishReason: string | undefined): unknown {
  return ([{ role: 'assistant', parts: parts(message), finish_reason: finishReason ?? '' }])
}
