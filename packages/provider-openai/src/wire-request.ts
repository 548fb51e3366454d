/**
 * rein messages and tool specs -> the Chat Completions request body. Pure and lossless where
 * the wire allows it: tool-call arguments that are strings go out byte for byte (even when
 * they are not valid JSON), user images become `image_url` content parts, and tool results,
 * which the wire carries as text only, are their text blocks joined (images named, not sent).
 */
import type { ContentBlock, GenerateRequest, Message, ToolCall, ToolSpec } from '@rein/kernel'
import type { ResolvedConfig } from './config.js'

/** One content part of a user message. */
export type WireContentPart =
  | { type: 'text', text: string }
  | { type: 'image_url', image_url: { url: string } }

/** One tool call of an assistant message, as the wire carries it. */
export interface WireToolCall {
  id: string
  type: 'function'
  function: { name: string, arguments: string }
}

/** One message of the `messages` array. */
export type WireMessage =
  | { role: 'system', content: string }
  | { role: 'user', content: string | WireContentPart[] }
  | { role: 'assistant', content: string | null, tool_calls?: WireToolCall[] }
  | { role: 'tool', tool_call_id: string, content: string }

/** One entry of the `tools` array. */
export interface WireTool {
  type: 'function'
  function: { name: string, description: string, parameters: Record<string, unknown> }
}

/** The request body. Optional fields are left out, not sent as null. */
export interface WireRequest {
  model: string
  messages: WireMessage[]
  stream: boolean
  stream_options?: { include_usage: boolean }
  tools?: WireTool[]
  parallel_tool_calls?: boolean
  temperature?: number
  max_tokens?: number
}

/** The text that stands in for an image where the wire only carries text. */
export function imagePlaceholder(block: { mimeType: string, data: string }): string {
  return `[image ${block.mimeType}, ${block.data.length} base64 characters, not shown]`
}

/** Text blocks joined by newlines; images replaced by a placeholder. */
export function joinText(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => (b.type === 'text' ? b.text : imagePlaceholder(b))).join('\n')
}

function userContent(content: string | readonly ContentBlock[]): string | WireContentPart[] {
  if (typeof content === 'string') return content
  if (content.every((b) => b.type === 'text')) return joinText(content)
  return content.map((b): WireContentPart => b.type === 'text'
    ? { type: 'text', text: b.text }
    : { type: 'image_url', image_url: { url: `data:${b.mimeType};base64,${b.data}` } })
}

/** A call's arguments as the wire string: strings untouched, objects serialized, nothing -> `{}`. */
export function argumentsText(args: ToolCall['arguments']): string {
  if (typeof args === 'string') return args
  if (args === undefined || args === null) return '{}'
  return JSON.stringify(args)
}

function toolCall(call: ToolCall): WireToolCall {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: argumentsText(call.arguments) } }
}

/** Maps one rein message to its wire form. */
export function toWireMessage(message: Message): WireMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content }
    case 'user':
      return { role: 'user', content: userContent(message.content) }
    case 'assistant': {
      const calls = message.toolCalls ?? []
      if (calls.length === 0) return { role: 'assistant', content: message.content }
      return { role: 'assistant', content: message.content === '' ? null : message.content, tool_calls: calls.map(toolCall) }
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: joinText(message.content) }
    default: {
      const never: never = message
      throw new TypeError(`unknown message role ${JSON.stringify((never as { role?: unknown }).role)}`)
    }
  }
}

/** Maps tool specs to the wire's function tools. */
export function toWireTools(tools: readonly ToolSpec[]): WireTool[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }))
}

/** The whole request body for one generation. */
export function buildRequest(config: ResolvedConfig, req: GenerateRequest, stream: boolean): WireRequest {
  const body: WireRequest = { model: config.model, messages: req.messages.map(toWireMessage), stream }
  if (stream) body.stream_options = { include_usage: true }
  if (req.tools.length > 0) {
    body.tools = toWireTools(req.tools)
    if (config.parallelToolCalls !== undefined) body.parallel_tool_calls = config.parallelToolCalls
  }
  if (config.temperature !== undefined) body.temperature = config.temperature
  if (config.maxTokens !== undefined) body.max_tokens = config.maxTokens
  return body
}
