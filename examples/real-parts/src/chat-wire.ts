/**
 * The Chat Completions wire format, as a scripted server writes it: one scripted answer
 * becomes either a `chat.completion` object or the `chat.completion.chunk` events of a
 * stream — text in word deltas, each tool call opened by a delta carrying its `index`, `id`
 * and name, its `arguments` string cut into pieces of `chunkSize` characters. Pure functions.
 */

/** A tool call the scripted model makes; object arguments are sent as their JSON text. */
export interface ScriptedToolCall {
  id: string
  name: string
  arguments: string | Record<string, unknown>
}

/** One scripted model turn. */
export interface ScriptedAnswer {
  content?: string
  toolCalls?: ScriptedToolCall[]
}

/** A message of a request, as the client sent it. */
export interface WireMessage {
  role: string
  content?: unknown
  tool_calls?: { id: string, type: string, function: { name: string, arguments: string } }[]
  tool_call_id?: string
}

/** The body of a request, as the client sent it (only the keys this server reads are typed). */
export interface WireRequest {
  model: string
  messages: WireMessage[]
  tools?: { type: string, function: { name: string, description?: string, parameters?: unknown } }[]
  stream?: boolean
  stream_options?: { include_usage?: boolean }
  parallel_tool_calls?: boolean
  [key: string]: unknown
}

/** How answers are cut into stream events. */
export interface ChunkOptions {
  /** Characters of `arguments` per delta (default 7), so every call's JSON spans several events. */
  chunkSize?: number
  /** Send the deltas of different tool calls round-robin instead of one call after the other. */
  interleave?: boolean
}

type Delta = Record<string, unknown>

/** The `arguments` text of a scripted call. */
export function argumentsText(call: ScriptedToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)
}

/** The `chat.completion` object answering a non-streamed request. */
export function completion(answer: ScriptedAnswer, request: WireRequest, id: string): Record<string, unknown> {
  const calls = answer.toolCalls ?? []
  const message: Delta = { role: 'assistant', content: answer.content || null }
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: argumentsText(call) } }))
  }
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message, finish_reason: finishReason(answer) }],
    usage: usage(answer, request),
  }
}

/** The payloads of the `data:` events answering a streamed request, `[DONE]` last. */
export function streamEvents(answer: ScriptedAnswer, request: WireRequest, id: string, options: ChunkOptions = {}): string[] {
  const chunk = (choices: unknown[], extra: Delta = {}) =>
    JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: request.model, choices, ...extra })
  const delta = (d: Delta, finish: string | null = null) => chunk([{ index: 0, delta: d, finish_reason: finish }])
  const events = [delta({ role: 'assistant', content: '' })]
  for (const word of (answer.content ?? '').split(/(?<=\s)/).filter((w) => w !== '')) events.push(delta({ content: word }))
  for (const toolCalls of toolCallDeltas(answer.toolCalls ?? [], options)) events.push(delta({ tool_calls: toolCalls }))
  events.push(delta({}, finishReason(answer)))
  if (request.stream_options?.include_usage) events.push(chunk([], { usage: usage(answer, request) }))
  events.push('[DONE]')
  return events
}

/** The `tool_calls` arrays of successive deltas: an opening delta per call, then argument pieces. */
function toolCallDeltas(calls: ScriptedToolCall[], options: ChunkOptions): Delta[][] {
  const size = Math.max(1, options.chunkSize ?? 7)
  const perCall = calls.map((call, index) => {
    const text = argumentsText(call)
    const pieces: Delta[] = [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }]
    for (let at = 0; at < text.length; at += size) pieces.push({ index, function: { arguments: text.slice(at, at + size) } })
    return pieces
  })
  if (!options.interleave) return perCall.flat().map((piece) => [piece])
  const rounds: Delta[][] = []
  for (let round = 0; perCall.some((pieces) => round < pieces.length); round++) {
    for (const pieces of perCall) if (round < pieces.length) rounds.push([pieces[round]!])
  }
  return rounds
}

function finishReason(answer: ScriptedAnswer): string {
  return (answer.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop'
}

/** Rough token counts (four characters a token): enough for clients that display usage. */
function usage(answer: ScriptedAnswer, request: WireRequest) {
  const prompt = Math.ceil(JSON.stringify(request.messages).length / 4)
  const written = (answer.content ?? '').length + (answer.toolCalls ?? []).reduce((n, call) => n + argumentsText(call).length, 0)
  const completion = Math.ceil(written / 4)
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
}
