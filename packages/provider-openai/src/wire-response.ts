/**
 * A non-streamed Chat Completions response -> a rein `AssistantMessage`. Tool-call arguments
 * are kept as the raw string the server sent (the scheduler parses them, and reports bad JSON
 * to the model itself); usage figures and `finish_reason` are copied when present. A body without a first choice
 * and its message is a `ProviderBadResponseError`, never a silently empty answer.
 */
import type { AssistantMessage, ToolCall } from '@rein/kernel'
import { failWith, ProviderBadResponseError, quote, type RequestSite } from '@rein/provider-kit'

type Usage = NonNullable<AssistantMessage['usage']>

/** Reads the wire's `usage` object; undefined when it has neither figure. */
export function readUsage(value: unknown): Usage | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const u = value as Record<string, unknown>
  const usage: Usage = {}
  if (typeof u.prompt_tokens === 'number') usage.inputTokens = u.prompt_tokens
  if (typeof u.completion_tokens === 'number') usage.outputTokens = u.completion_tokens
  return Object.keys(usage).length > 0 ? usage : undefined
}

/** An id for a call the server sent without one, unique within the message. */
export function fallbackCallId(index: number): string {
  return `call_${index}`
}

/** Builds the message from its parts; `toolCalls`, `usage` and `finishReason` (the wire's `finish_reason`) only when there are some. */
export function assistantMessage(content: string, toolCalls: ToolCall[], usage: Usage | undefined, finishReason?: string): AssistantMessage {
  const message: AssistantMessage = { role: 'assistant', content }
  if (toolCalls.length > 0) message.toolCalls = toolCalls
  if (usage !== undefined) message.usage = usage
  if (finishReason !== undefined) message.finishReason = finishReason
  return message
}

function bad(site: RequestSite, what: string, body: string): ProviderBadResponseError {
  return failWith(site, ProviderBadResponseError, `${site.baseURL} answered with ${what}, not a Chat Completions response: ${quote(body, site)}`)
}

function readToolCalls(value: unknown, site: RequestSite, body: string): ToolCall[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw bad(site, '"tool_calls" that is not an array', body)
  return value.map((raw: unknown, i): ToolCall => {
    const c = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>
    const fn = (typeof c.function === 'object' && c.function !== null ? c.function : {}) as Record<string, unknown>
    if (typeof fn.name !== 'string') throw bad(site, `a tool call (#${i}) without a function name`, body)
    const args = typeof fn.arguments === 'string' ? fn.arguments : fn.arguments === undefined ? '' : JSON.stringify(fn.arguments)
    return { id: typeof c.id === 'string' && c.id !== '' ? c.id : fallbackCallId(i), name: fn.name, arguments: args }
  })
}

/** Parses the body text of a non-streamed answer. */
export function parseCompletion(body: string, site: RequestSite): AssistantMessage {
  let json: unknown
  try { json = JSON.parse(body) } catch { throw bad(site, 'a body that is not JSON', body) }
  const root = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>
  const choices = root.choices
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined
  const msg = typeof first === 'object' && first !== null ? (first as Record<string, unknown>).message : undefined
  if (typeof msg !== 'object' || msg === null) throw bad(site, 'JSON without choices[0].message', body)
  const m = msg as Record<string, unknown>
  const content = typeof m.content === 'string' ? m.content : ''
  const reason = (first as Record<string, unknown>).finish_reason
  return assistantMessage(content, readToolCalls(m.tool_calls, site, body), readUsage(root.usage), typeof reason === 'string' ? reason : undefined)
}
