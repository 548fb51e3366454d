/**
 * With `stream: false` the provider asks for one JSON message; `generate` reads it whole and
 * `stream()` still works (the text as one delta, then the message). A streaming request that
 * the server answers with JSON anyway is read whole too.
 */
import type { AssistantMessage } from '@rein/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { ProviderBadResponseError } from '../src/index.js'
import { drain, providerFor, request, startServer, type ScriptedServer } from './helpers.js'
import { answerJson, jsonReply } from './wire.js'

let server: ScriptedServer | undefined
afterEach(async () => { await server?.close(); server = undefined })

const ANSWER: AssistantMessage = {
  role: 'assistant',
  content: 'Reading both.',
  toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: '{"path":"a.txt"}' }, { id: 'toolu_2', name: 'read_file', arguments: '{"path":"b.txt"}' }],
}

describe('a non-streamed answer', () => {
  it('asks for JSON and reads text, tool calls (input as JSON text), stop reason and usage', async () => {
    server = await startServer(jsonReply(answerJson(ANSWER)))
    const message = await providerFor(server, { stream: false }).generate(request())
    expect(server.requests[0]!.body.stream).toBe(false)
    expect(server.requests[0]!.headers.accept).toBe('application/json')
    expect(message).toEqual({ ...ANSWER, finishReason: 'tool_use', usage: { inputTokens: 12, outputTokens: 34 } })
  })

  it('still streams: the text as one delta, then the message', async () => {
    server = await startServer(jsonReply(answerJson({ role: 'assistant', content: 'hi' })))
    const { events } = await drain(providerFor(server, { stream: false }).stream(request()))
    expect(events).toEqual([{ type: 'text-delta', text: 'hi' }, { type: 'message', message: expect.objectContaining({ content: 'hi', finishReason: 'end_turn' }) }])
  })

  it('reads a JSON answer whole when it asked for a stream and the server sent JSON', async () => {
    server = await startServer(jsonReply(answerJson(ANSWER)))
    expect((await providerFor(server).generate(request())).toolCalls).toEqual(ANSWER.toolCalls)
  })

  it('refuses a 2xx body that is not a message, quoting it', async () => {
    server = await startServer({ status: 200, headers: { 'content-type': 'text/html' }, body: '<html>Gateway login</html>' })
    const error = await providerFor(server, { stream: false }).generate(request()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderBadResponseError)
    expect((error as Error).message).toMatch(/answered with a body that is not JSON, not a Messages API response: <html>Gateway login<\/html>/)
  })
})
