/**
 * The conversation vocabulary shared by the agent loop and model providers: messages, the
 * tool specs a model is shown, and the Provider contract (DESIGN.md §3). Here, so that a
 * provider speaks it without importing the loop or the kernel.
 */
import type { ContentBlock, ToolCall } from './tool.js'

/** What a model is shown for one tool: name, description and the JSON Schema of its parameters. */
export interface ToolSpec {
  name: string
  description: string
  parameters: Record<string, unknown>
}

export interface SystemMessage { role: 'system', content: string }
export interface UserMessage { role: 'user', content: string | ContentBlock[] }
/** A model turn: text and, optionally, the tool calls it asks for. */
export interface AssistantMessage {
  role: 'assistant'
  content: string
  toolCalls?: ToolCall[]
  /** Token counts when the provider reports them. */
  usage?: { inputTokens?: number, outputTokens?: number }
  /** Why the model stopped, as its wire protocol says it (`stop`, `tool_calls`, `end_turn`, `tool_use`, `length`...), when the provider reports it. */
  finishReason?: string
}
/** The result of one tool call, as the model is shown it. */
export interface ToolMessage {
  role: 'tool'
  toolCallId: string
  content: ContentBlock[]
  isError: boolean
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage

/** One request to a model. */
export interface GenerateRequest {
  messages: readonly Message[]
  tools: readonly ToolSpec[]
  signal?: AbortSignal
}

/** A streamed event: text as it arrives, then the whole message last. */
export type StreamEvent =
  | { type: 'text-delta', text: string }
  | { type: 'message', message: AssistantMessage }

/** A model. `stream` is optional; the loop prefers it when present, for live display. */
export interface Provider {
  generate(req: GenerateRequest): Promise<AssistantMessage>
  stream?(req: GenerateRequest): AsyncIterable<StreamEvent>
}
