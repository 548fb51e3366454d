/**
 * The provider contract suite passes a provider that keeps the contract, and fails, on the
 * right check, each provider that breaks one rule of it.
 */
import type { AssistantMessage, Provider, StreamEvent } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { providerChecks, testProvider, type ProviderCheck } from '../src/index.js'
import { reference, type Parts } from './reference-provider.js'

testProvider('the in-memory reference provider', reference(), { describe, it })
testProvider('a generate-only provider', reference(({ provider }) => ({ generate: provider.generate })), { describe, it })

const once = (message: AssistantMessage): Provider['stream'] => async function* () {
  yield { type: 'text-delta', text: message.content }
  yield { type: 'message', message } satisfies StreamEvent
}

const broken: [string, ProviderCheck, (parts: Parts) => Provider][] = [
  ['changes the transcript it is given', 'generate resolves to an assistant message with the answer and leaves the request untouched',
    ({ provider }) => ({ generate: async (req) => { (req.messages as unknown[]).push({ role: 'user', content: 'x' }); return provider.generate(req) } })],
  ['answers a text that differs from the server\'s', 'generate resolves to an assistant message with the answer and leaves the request untouched',
    () => ({ generate: async () => ({ role: 'assistant', content: 'something else' }) })],
  ['gives two calls one id', 'tool calls keep their ids, names and arguments, in order',
    ({ provider }) => ({ generate: async (req) => {
      const m = await provider.generate(req)
      return { ...m, toolCalls: m.toolCalls?.map((c) => ({ ...c, id: 'same' })) }
    } })],
  ['reverses the tool calls', 'tool calls keep their ids, names and arguments, in order',
    ({ provider }) => ({ generate: async (req) => { const m = await provider.generate(req); return { ...m, toolCalls: m.toolCalls?.slice().reverse() } } })],
  ['drops the tool results from the request', 'the server receives the system prompt, the tool calls and their results',
    ({ provider }) => ({ generate: (req) => provider.generate({ ...req, messages: req.messages.filter((m) => m.role !== 'tool') }) })],
  ['sends every result as a success', 'the server receives the system prompt, the tool calls and their results',
    ({ provider }) => ({ generate: (req) => provider.generate({ ...req, messages: req.messages.map((m) => (m.role === 'tool' ? { ...m, isError: false } : m)) }) })],
  ['ends the stream without a message', 'stream yields text deltas that spell the text, then exactly one message, last',
    ({ provider }) => ({ generate: provider.generate, async *stream() { yield { type: 'text-delta', text: 'a' } } })],
  ['streams deltas that do not spell the text', 'stream yields text deltas that spell the text, then exactly one message, last',
    ({ provider }) => ({ generate: provider.generate, async *stream(req) {
      const m = await provider.generate(req)
      yield { type: 'text-delta', text: m.content.slice(1) }
      yield { type: 'message', message: m }
    } })],
  ['streams a message that differs from generate\'s', "stream's message equals generate's for the same answer",
    ({ provider }) => ({ generate: async (req) => ({ ...(await provider.generate(req)), content: 'one' }), stream: once({ role: 'assistant', content: 'two' }) })],
  ['ignores an aborted signal', 'an already-aborted signal rejects generate and stream',
    ({ script }) => ({ generate: async () => (script.kind === 'answer' ? script.message : { role: 'assistant', content: '' }) })],
  ['waits out an abort', 'an abort while the answer is under way rejects generate and stream promptly',
    ({ provider }) => ({ generate: ({ signal: _, ...req }) => provider.generate(req) })],
  ['quotes the key in its message', 'errors never show the API key, even when the server echoes it',
    ({ script }) => ({ generate: async () => { throw new Error(script.kind === 'fail' ? script.message : 'no') } })],
  ['keeps the key in a cause', 'errors never show the API key, even when the server echoes it',
    ({ apiKey }) => ({ generate: async () => { throw new Error('unauthorized', { cause: { headers: { 'x-api-key': apiKey } } }) } })],
  ['keeps the key in a property', 'errors never show the API key, even when the server echoes it',
    ({ apiKey }) => ({ generate: async () => { throw Object.assign(new Error('unauthorized'), { request: { url: `https://x/?key=${apiKey}` } }) } })],
]

describe('the suite catches a provider that', () => {
  it.each(broken)('%s (fails "%s")', async (_, check, change) => {
    await expect(providerChecks[check](reference(change))).rejects.toThrow()
  })
})

describe('testProvider', () => {
  it('says how to pass describe and it when there are no globals', () => {
    expect(() => testProvider('x', reference())).toThrow(/testProvider\(name, adapter, \{ describe, it \}\)/)
  })
})
