import type { AssistantMessage, Provider } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { providerChecks, testProvider, type MakeProvider } from './contract.js'
import { startFixtureServer } from './fixture-server.js'
import { providerFor } from './helpers.js'

/** The OpenAI provider against a server that answers every request with the same recorded exchange. */
function overLoopback(stream: boolean): MakeProvider {
  return async () => {
    const server = await startFixtureServer()
    server.otherwise((req) => (req.body.stream ? { sse: 'stream-tool-calls.sse' } : { json: 'completion-tool-calls.json' }))
    return { provider: providerFor(server, { stream }), dispose: () => server.close() }
  }
}

testProvider('openai over SSE', overLoopback(true))
testProvider('openai without streaming', overLoopback(false))

const answer: AssistantMessage = { role: 'assistant', content: 'a strap', toolCalls: [{ id: 'x', name: 'lookup', arguments: { word: 'x' } }] }
testProvider('a generate-only provider', () => ({ generate: async () => structuredClone(answer) }), { honoursAbort: false })

type Check = keyof typeof providerChecks
const GENERATE: Check = 'generate resolves to an assistant message and leaves the request untouched'
const EVENTS: Check = 'stream yields text deltas that spell the text, then exactly one message, last'
const SAME: Check = "stream's message equals generate's for the same request"
const ABORT: Check = 'an already-aborted signal rejects generate and stream'

describe('the contract suite catches a broken provider', () => {
  const broken: [string, Check, Provider][] = [
    ['a stream whose message differs from generate', SAME, {
      generate: async () => ({ role: 'assistant', content: 'one' }),
      async *stream() { yield { type: 'text-delta', text: 'two' }; yield { type: 'message', message: { role: 'assistant', content: 'two' } } },
    }],
    ['a stream without a final message', EVENTS, {
      generate: async () => ({ role: 'assistant', content: 'a' }),
      async *stream() { yield { type: 'text-delta', text: 'a' } },
    }],
    ['deltas that do not spell the text', EVENTS, {
      generate: async () => ({ role: 'assistant', content: 'abc' }),
      async *stream() { yield { type: 'text-delta', text: 'ab' }; yield { type: 'message', message: { role: 'assistant', content: 'abc' } } },
    }],
    ['a provider that mutates the transcript', GENERATE, {
      generate: async (req) => { (req.messages as unknown[]).push({ role: 'user', content: 'x' }); return { role: 'assistant', content: '' } },
    }],
    ['duplicate tool-call ids', GENERATE, {
      generate: async () => ({ role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'f', arguments: '{}' }, { id: 'a', name: 'g', arguments: '{}' }] }),
    }],
    ['an abort that is ignored', ABORT, { generate: async () => ({ role: 'assistant', content: 'late' }) }],
  ]

  it.each(broken)('%s fails "%s"', async (_, check, provider) => {
    await expect(providerChecks[check](() => provider)).rejects.toThrow()
  })
})
