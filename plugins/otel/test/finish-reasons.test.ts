/**
 * The finish reason from the wire to the span: both shipped providers, each answering from a
 * real HTTP server in its own protocol, put it on the message as `finishReason`; the agent
 * reports it, and the plugin sets `gen_ai.response.finish_reasons` and the output message's
 * `finish_reason`.
 */
import { trace } from '@opentelemetry/api'
import { createProvider as anthropic } from '@rein/provider-anthropic'
import { createProvider as openai } from '@rein/provider-openai'
import { createAgent } from '@rein/agent'
import type { Provider } from '@rein/kernel'
import { startHttpFixture, type HttpFixture } from '@rein/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { harness, recordSpans } from './helpers.js'

const servers: HttpFixture[] = []
afterEach(async () => {
  trace.disable()
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

/** A server that answers every request with `body` as JSON. */
async function answering(body: unknown): Promise<string> {
  const server = await startHttpFixture(() => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
  servers.push(server)
  return server.url
}

const wires: [string, (url: string) => Provider, unknown, string][] = [
  ['Chat Completions', (url) => openai({ baseURL: url, apiKey: 'k', model: 'm', stream: false }), {
    id: 'c', object: 'chat.completion', model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content: 'cut short' }, finish_reason: 'length' }],
  }, 'length'],
  ['Messages', (url) => anthropic({ baseURL: url, apiKey: 'k', model: 'm', maxTokens: 64, stream: false }), {
    id: 'msg_1', type: 'message', role: 'assistant', model: 'm',
    content: [{ type: 'text', text: 'cut short' }], stop_reason: 'max_tokens', usage: { input_tokens: 3, output_tokens: 64 },
  }, 'max_tokens'],
]

describe('finish reasons on chat spans', () => {
  it.each(wires)('%s: the wire\'s reason reaches gen_ai.response.finish_reasons and the output message', async (_, make, body, reason) => {
    const { spans } = recordSpans()
    const { ctx } = await harness({ captureContent: true })
    const provider = make(await answering(body))
    const outcome = await createAgent(ctx, { provider, name: 'scout' }).run('go')
    expect(outcome.kind).toBe('completed')
    const chat = spans().find((span) => span.name.startsWith('chat '))!
    expect(chat.attributes['gen_ai.response.finish_reasons']).toEqual([reason])
    expect(JSON.parse(chat.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', finish_reason: reason, parts: [{ type: 'text', content: 'cut short' }] },
    ])
    await ctx.stop()
  })
})
