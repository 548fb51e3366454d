/**
 * The shared Provider contract suite from `@rein/testing`, run against this provider over a
 * real 127.0.0.1 server speaking Chat Completions, streamed and not. The wire has no flag for
 * a failed tool result, so `isError` is not reported back to the suite.
 */
import type { AssistantMessage } from '@rein/kernel'
import { startHttpFixture, testProvider, type FixtureReply, type FixtureScript, type ProviderAdapter, type ReceivedRequest } from '@rein/testing'
import { describe, it } from 'vitest'
import { createProvider } from '../src/provider.js'

type Obj = Record<string, any>

const argsText = (args: unknown) => (typeof args === 'string' ? args : JSON.stringify(args))
const chunk = (delta: Obj, finish: string | null = null) => `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
const split = (text: string) => Array.from(text).reduce<string[]>((out, c, i) => { if (i % 3 === 0) out.push(c); else out[out.length - 1] += c; return out }, [])

/** A streamed answer: text in 3-character deltas, each call's arguments likewise, then the finish reason and [DONE]. */
function streamed(message: AssistantMessage): string[] {
  const out = split(message.content).map((content) => chunk({ content }))
  for (const [index, call] of (message.toolCalls ?? []).entries()) {
    out.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }))
    for (const piece of split(argsText(call.arguments))) out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }))
  }
  out.push(chunk({}, message.toolCalls?.length ? 'tool_calls' : 'stop'), 'data: [DONE]\n\n')
  return out
}

function whole(message: AssistantMessage): Obj {
  const tool_calls = message.toolCalls?.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: argsText(c.arguments) } }))
  return { object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: message.content, ...(tool_calls ? { tool_calls } : {}) }, finish_reason: 'stop' }] }
}

const SSE = { 'content-type': 'text/event-stream' }
const JSON_TYPE = { 'content-type': 'application/json' }

/** The Chat Completions answer to one request under `script`. */
function reply(script: FixtureScript, body: Obj): FixtureReply {
  switch (script.kind) {
    case 'answer': return body.stream ? { headers: SSE, body: streamed(script.message) } : { headers: JSON_TYPE, body: JSON.stringify(whole(script.message)) }
    case 'stall': return body.stream ? { headers: SSE, body: [chunk({ content: script.text })], then: 'hang' } : { silent: true }
    case 'fail': return { status: script.status, headers: JSON_TYPE, body: JSON.stringify({ error: { message: script.message, type: 'invalid_request_error' } }) }
  }
}

/** A request body read back into rein's terms. */
function receivedOf(body: Obj): ReceivedRequest {
  const messages: Obj[] = body.messages ?? []
  return {
    system: messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n'),
    toolCalls: messages.flatMap((m) => m.tool_calls ?? []).map((c: Obj) => ({ id: c.id, name: c.function.name, arguments: JSON.parse(c.function.arguments) })),
    toolResults: messages.filter((m) => m.role === 'tool').map((m) => ({ toolCallId: m.tool_call_id, text: m.content })),
    tools: (body.tools ?? []).map((t: Obj) => t.function.name),
  }
}

function overLoopback(stream: boolean): ProviderAdapter {
  return {
    async start(script, { apiKey }) {
      const server = await startHttpFixture((request) => reply(script, request.body))
      return {
        provider: createProvider({ baseURL: `${server.url}/v1`, apiKey, model: 'deepseek-chat', stream }),
        received: () => server.requests.map((r) => receivedOf(r.body)),
        close: () => server.close(),
      }
    },
  }
}

testProvider('openai over SSE', overLoopback(true), { describe, it })
testProvider('openai without streaming', overLoopback(false), { describe, it })
