/**
 * Small builders for the messages a test scripts: tool calls as a model makes them (arguments
 * as a raw JSON string) and assistant messages with or without calls.
 */
import type { AssistantMessage, ToolCall } from '@rein/kernel'

/**
 * A tool call as a model sends it. An object argument is serialized to JSON, as on the wire;
 * a string is passed through untouched (so a test can send invalid JSON).
 */
export function toolCall(id: string, name: string, args: Record<string, unknown> | string = {}): ToolCall {
  return { id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }
}

/** An assistant message that asks for `calls` (one batch). */
export function callMessage(calls: ToolCall[], content = ''): AssistantMessage {
  return { role: 'assistant', content, toolCalls: calls }
}

/** An assistant message with text only: the model's final answer. */
export function textMessage(content: string): AssistantMessage {
  return { role: 'assistant', content }
}
