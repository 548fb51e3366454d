/**
 * rein messages and tool specs -> the Messages API request body. Pure. System messages, wherever
 * they stand, become the top-level `system` (the wire has no system role). The other messages
 * become content blocks, and consecutive messages of one side are merged into one message: the
 * results of a batch of tool calls (and any user text after them) go back as one user message,
 * `tool_result` blocks first. Empty text blocks, which the API refuses, are left out.
 */
import { MAX_ARGUMENT_DEPTH, type ContentBlock, type GenerateRequest, type Message, type ToolCall, type ToolSpec } from '@rein/kernel'
import type { ResolvedConfig } from './config.js'

/** Text or an image: what a user message or a tool result may hold. */
export type WireContent =
  | { type: 'text', text: string }
  | { type: 'image', source: { type: 'base64', media_type: string, data: string } }

/** One content block of a request message. */
export type WireBlock =
  | WireContent
  | { type: 'tool_use', id: string, name: string, input: Record<string, unknown> }
  | { type: 'tool_result', tool_use_id: string, content?: WireContent[], is_error: boolean }

export interface WireMessage {
  role: 'user' | 'assistant'
  content: WireBlock[]
}

export interface WireTool {
  name: string
  description?: string
  input_schema: Record<string, unknown>
}

/** The request body. Optional fields are left out, never sent as null. */
export interface WireRequest {
  model: string
  max_tokens: number
  system?: string
  messages: WireMessage[]
  tools?: WireTool[]
  tool_choice?: { type: 'auto', disable_parallel_tool_use: true }
  temperature?: number
  stream: boolean
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * A call's arguments as the wire's `input`, which must be an object: a JSON object string is
 * parsed, an object is taken as is; anything else (empty, invalid JSON, not an object, nested
 * deeper than the kernel accepts, which the request's JSON could not even be written with) is
 * `{}`. The model has already been told, in the call's result, that such arguments were invalid.
 */
export function toolInput(args: ToolCall['arguments']): Record<string, unknown> {
  let value: unknown = args
  if (typeof args === 'string') {
    try {
      value = JSON.parse(args)
    } catch {
      return {}
    }
  }
  return isObject(value) && !deeperThan(value, MAX_ARGUMENT_DEPTH) ? value : {}
}

/** Whether `value` nests objects and arrays more than `limit` levels deep (walked without recursion). */
function deeperThan(value: object, limit: number): boolean {
  const stack: [object, number][] = [[value, 1]]
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, depth] = next
    if (depth > limit) return true
    for (const child of Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1])
    }
  }
  return false
}

/** rein content blocks -> wire content, empty texts left out. */
export function wireContent(blocks: readonly ContentBlock[]): WireContent[] {
  return blocks.flatMap((b): WireContent[] => {
    if (b.type === 'text') return b.text === '' ? [] : [{ type: 'text', text: b.text }]
    return [{ type: 'image', source: { type: 'base64', media_type: b.mimeType, data: b.data } }]
  })
}

function text(content: string): WireContent[] {
  return content === '' ? [] : [{ type: 'text', text: content }]
}

/** One non-system message as the side it belongs to and its blocks. */
function blocksOf(message: Exclude<Message, { role: 'system' }>): WireMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: typeof message.content === 'string' ? text(message.content) : wireContent(message.content) }
    case 'assistant': {
      const calls = (message.toolCalls ?? []).map((c): WireBlock => ({ type: 'tool_use', id: c.id, name: c.name, input: toolInput(c.arguments) }))
      return { role: 'assistant', content: [...text(message.content), ...calls] }
    }
    case 'tool': {
      const content = wireContent(message.content)
      return { role: 'user', content: [{ type: 'tool_result', tool_use_id: message.toolCallId, ...(content.length > 0 ? { content } : {}), is_error: message.isError }] }
    }
    default: {
      const never: never = message
      throw new TypeError(`unknown message role ${JSON.stringify((never as { role?: unknown }).role)}`)
    }
  }
}

/** The transcript as wire messages: sides merged, `tool_result` blocks first in a user message, empty messages dropped. */
export function toWireMessages(messages: readonly Message[]): WireMessage[] {
  const out: WireMessage[] = []
  for (const message of messages) {
    if (message.role === 'system') continue
    const next = blocksOf(message)
    if (next.content.length === 0) continue
    const last = out.at(-1)
    if (last?.role === next.role) last.content.push(...next.content)
    else out.push(next)
  }
  for (const m of out) {
    if (m.role === 'user') m.content = [...m.content.filter((b) => b.type === 'tool_result'), ...m.content.filter((b) => b.type !== 'tool_result')]
  }
  return out
}

/** Every system message's text, in order, joined by a blank line; undefined when there is none. */
export function systemPrompt(messages: readonly Message[]): string | undefined {
  const parts = messages.flatMap((m) => (m.role === 'system' && m.content !== '' ? [m.content] : []))
  return parts.length === 0 ? undefined : parts.join('\n\n')
}

export function toWireTools(tools: readonly ToolSpec[]): WireTool[] {
  return tools.map((t) => ({ name: t.name, ...(t.description === '' ? {} : { description: t.description }), input_schema: t.parameters }))
}

/** The whole request body for one generation. */
export function buildRequest(config: ResolvedConfig, req: GenerateRequest, stream: boolean): WireRequest {
  const body: WireRequest = { model: config.model, max_tokens: config.maxTokens, messages: toWireMessages(req.messages), stream }
  const system = systemPrompt(req.messages)
  if (system !== undefined) body.system = system
  if (req.tools.length > 0) {
    body.tools = toWireTools(req.tools)
    if (config.parallelToolCalls === false) body.tool_choice = { type: 'auto', disable_parallel_tool_use: true }
  }
  if (config.temperature !== undefined) body.temperature = config.temperature
  return body
}
