/**
 * A Messages API response -> a rein `AssistantMessage`. The text is the text blocks joined as
 * they come; each `tool_use` block is a tool call whose `arguments` is the JSON text of its
 * `input`; usage and `stop_reason` are copied when present. Other block kinds (thinking, server
 * tools) are skipped. A body that is not a message is a `ProviderBadResponseError`.
 */
import type { AssistantMessage, ToolCall } from '@rein/kernel'
import { failWith, ProviderBadResponseError, quote, type RequestSite } from '@rein/provider-kit'

/** Why the model stopped, as the API says it: `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`, `pause_turn`, `refusal`... */
export type StopReason = string

/** The message this provider answers; its `finishReason` is the wire's `stop_reason`. */
export type AnthropicAssistantMessage = AssistantMessage

type Usage = NonNullable<AssistantMessage['usage']>
type Obj = Record<string, unknown>
const asObject = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Obj : undefined)

/**
 * The wire's `usage` merged over `previous` (a stream reports it twice: at the start and at the
 * end). `inputTokens` counts every prompt token: `input_tokens` plus tokens written to and read
 * from the prompt cache, which the API counts apart.
 */
export function readUsage(value: unknown, previous: Usage | undefined): Usage | undefined {
  const u = asObject(value)
  if (u === undefined) return previous
  const number = (key: string) => (typeof u[key] === 'number' && Number.isFinite(u[key]) ? u[key] as number : undefined)
  const inputs = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'].map(number)
  const usage: Usage = { ...previous }
  if (inputs.some((n) => n !== undefined)) usage.inputTokens = inputs.reduce<number>((sum, n) => sum + (n ?? 0), 0)
  const output = number('output_tokens')
  if (output !== undefined) usage.outputTokens = output
  return Object.keys(usage).length > 0 ? usage : undefined
}

/** The message from its parts; `toolCalls`, `usage` and `finishReason` (the `stop_reason`) only when there are some. */
export function assistantMessage(content: string, toolCalls: ToolCall[], usage: Usage | undefined, stopReason: StopReason | undefined): AnthropicAssistantMessage {
  const message: AnthropicAssistantMessage = { role: 'assistant', content }
  if (toolCalls.length > 0) message.toolCalls = toolCalls
  if (usage !== undefined) message.usage = usage
  if (stopReason !== undefined) message.finishReason = stopReason
  return message
}

/** An id for a `tool_use` block the server sent without one, unique within the message. */
export function fallbackCallId(index: number): string {
  return `toolu_missing_${index}`
}

function bad(site: RequestSite, what: string, body: string): ProviderBadResponseError {
  return failWith(site, ProviderBadResponseError, `${site.baseURL} answered with ${what}, not a Messages API response: ${quote(body, site)}`)
}

/** Parses the body text of a non-streamed answer. */
export function parseMessage(body: string, site: RequestSite): AnthropicAssistantMessage {
  let json: unknown
  try { json = JSON.parse(body) } catch { throw bad(site, 'a body that is not JSON', body) }
  const root = asObject(json)
  if (root === undefined || !Array.isArray(root.content)) throw bad(site, 'JSON without a "content" array', body)
  let text = ''
  const calls: ToolCall[] = []
  for (const [i, raw] of root.content.entries()) {
    const block = asObject(raw)
    if (block?.type === 'text' && typeof block.text === 'string') text += block.text
    if (block?.type !== 'tool_use') continue
    if (typeof block.name !== 'string' || block.name === '') throw bad(site, `a tool_use block (content[${i}]) without a name`, body)
    const id = typeof block.id === 'string' && block.id !== '' ? block.id : fallbackCallId(calls.length)
    calls.push({ id, name: block.name, arguments: JSON.stringify(block.input ?? {}) })
  }
  const stop = typeof root.stop_reason === 'string' ? root.stop_reason : undefined
  return assistantMessage(text, calls, readUsage(root.usage, undefined), stop)
}
