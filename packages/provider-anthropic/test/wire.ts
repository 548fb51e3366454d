/**
 * The Anthropic wire as a test server speaks it: a rein message encoded as a streamed answer
 * (SSE events, text and tool input split into many deltas) or as one JSON message, error
 * bodies, SSE text cut into byte slices, and a request body read back into rein's terms.
 */
import type { AssistantMessage } from '@rein/kernel'
import type { FixtureReply, ReceivedRequest } from '@rein/testing'

type Obj = Record<string, any>

/** Options of an encoded answer. */
export interface AnswerOptions {
  stopReason?: string
  usage?: { input_tokens: number, output_tokens: number, cache_read_input_tokens?: number }
  /** Code points per text delta and per `partial_json` delta. Default 3. */
  piece?: number
}

/** `text` cut into pieces of `n` code points (a JSON escape like `\"` may be cut too). */
export function pieces(text: string, n: number): string[] {
  const points = Array.from(text)
  const out: string[] = []
  for (let i = 0; i < points.length; i += n) out.push(points.slice(i, i + n).join(''))
  return out
}

const stopOf = (m: AssistantMessage, o: AnswerOptions) => o.stopReason ?? ((m.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn')
const usageOf = (o: AnswerOptions) => o.usage ?? { input_tokens: 12, output_tokens: 34 }
const argsText = (args: unknown) => (typeof args === 'string' ? args : JSON.stringify(args))

/** The events of a streamed answer, in order, as objects. */
export function answerEvents(message: AssistantMessage, options: AnswerOptions = {}): Obj[] {
  const n = options.piece ?? 3
  const usage = usageOf(options)
  const events: Obj[] = [
    { type: 'message_start', message: { id: 'msg_test', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } },
    { type: 'ping' },
  ]
  let index = 0
  if (message.content !== '') {
    events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } })
    for (const text of pieces(message.content, n)) events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } })
    events.push({ type: 'content_block_stop', index })
    index++
  }
  for (const call of message.toolCalls ?? []) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } })
    for (const partial_json of pieces(argsText(call.arguments), n)) events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } })
    events.push({ type: 'content_block_stop', index })
    index++
  }
  events.push({ type: 'message_delta', delta: { stop_reason: stopOf(message, options), stop_sequence: null }, usage: { output_tokens: usage.output_tokens } })
  events.push({ type: 'message_stop' })
  return events
}

/** SSE text of events: `event: <type>` and `data: <json>` each. */
export function sse(events: Obj[]): string {
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('')
}

/** The answer as one JSON message (the non-streamed form). */
export function answerJson(message: AssistantMessage, options: AnswerOptions = {}): Obj {
  const content: Obj[] = []
  if (message.content !== '') content.push({ type: 'text', text: message.content })
  for (const c of message.toolCalls ?? []) content.push({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(argsText(c.arguments)) })
  return { id: 'msg_test', type: 'message', role: 'assistant', model: 'claude-test', content, stop_reason: stopOf(message, options), stop_sequence: null, usage: usageOf(options) }
}

/** An error body as the API sends it. */
export function errorBody(type: string, message: string, requestId = 'req_test_1'): string {
  return JSON.stringify({ type: 'error', error: { type, message }, request_id: requestId })
}

/** The UTF-8 bytes of `text` in slices of `size` bytes (so slices cut events and characters). */
export function byteSlices(text: string, size: number): Uint8Array[] {
  const bytes = Buffer.from(text, 'utf8')
  const out: Uint8Array[] = []
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size))
  return out
}

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' }

/** A 200 reply with an SSE body, written in byte slices. */
export function sseReply(body: string, options: { slice?: number, then?: 'end' | 'hang' | 'destroy' } = {}): FixtureReply {
  return { status: 200, headers: SSE_HEADERS, body: byteSlices(body, options.slice ?? 7), then: options.then ?? 'end' }
}

/** A reply with a JSON body. */
export function jsonReply(body: unknown, status = 200, headers: Record<string, string> = {}): FixtureReply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) }
}

/** The answer to a request, streamed or not as the request asked. */
export function answerReply(request: { body: any }, message: AssistantMessage, options: AnswerOptions = {}): FixtureReply {
  return request.body?.stream ? sseReply(sse(answerEvents(message, options))) : jsonReply(answerJson(message, options))
}

const textOf = (content: unknown): string => (typeof content === 'string'
  ? content
  : Array.isArray(content) ? content.filter((b: Obj) => b.type === 'text').map((b: Obj) => b.text).join('\n') : '')

/** A request body read back into rein's terms (for the contract suite). */
export function receivedOf(body: Obj): ReceivedRequest {
  const messages: Obj[] = Array.isArray(body?.messages) ? body.messages : []
  const blocks = (role: string) => messages.filter((m) => m.role === role).flatMap((m) => (Array.isArray(m.content) ? m.content : []))
  return {
    system: textOf(body?.system),
    toolCalls: blocks('assistant').filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, name: b.name, arguments: b.input })),
    toolResults: blocks('user').filter((b) => b.type === 'tool_result')
      .map((b) => ({ toolCallId: b.tool_use_id, text: textOf(b.content), isError: b.is_error === true })),
    tools: Array.isArray(body?.tools) ? body.tools.map((t: Obj) => t.name) : [],
  }
}
