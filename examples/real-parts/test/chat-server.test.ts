import { createProvider } from '@rein/provider-openai'
import type { Message } from '@rein/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { startChatServer, toolMessages, type ChatServer, type ChatStep } from '../src/index.js'

let server: ChatServer | undefined
afterEach(async () => { await server?.close() })

async function start(steps: ChatStep[]) {
  server = await startChatServer(steps)
  return server
}

const tools = [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }]
const user: Message[] = [{ role: 'user', content: 'read a.txt' }]

describe('startChatServer with the real provider', () => {
  it('answers streamed and non-streamed requests in script order, recording each request', async () => {
    const s = await start([
      { content: 'Reading.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } }] },
      { content: 'Plain answer.' },
    ])
    const streaming = createProvider({ baseURL: s.baseURL, model: 'm', apiKey: 'k1' })
    const plain = createProvider({ baseURL: s.baseURL, model: 'm', apiKey: 'k2', stream: false })

    const first = await streaming.generate({ messages: user, tools })
    expect(first).toMatchObject({ role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}' }] })
    expect(first.usage?.outputTokens).toBeGreaterThan(0)
    const second = await plain.generate({ messages: user, tools })
    expect(second).toMatchObject({ role: 'assistant', content: 'Plain answer.' })

    expect(s.requests.map((r) => [r.path, r.headers.authorization, r.body.stream ?? false])).toEqual([
      ['/v1/chat/completions', 'Bearer k1', true],
      ['/v1/chat/completions', 'Bearer k2', false],
    ])
  })

  it('gives a step function the request and its index, and answers "done" past the end', async () => {
    const s = await start([(request, index) => ({ content: `#${index}: ${toolMessages(request).map((m) => m.content).join('+')}` })])
    const provider = createProvider({ baseURL: s.baseURL, model: 'm', apiKey: 'k' })
    const messages: Message[] = [
      ...user,
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{}' }, { id: 'c2', name: 'read_file', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', content: [{ type: 'text', text: 'A' }], isError: false },
      { role: 'tool', toolCallId: 'c2', content: [{ type: 'text', text: 'B' }], isError: false },
    ]
    expect((await provider.generate({ messages, tools })).content).toBe('#0: A+B')
    expect(toolMessages(s.requests[0]!).map((m) => m.toolCallId)).toEqual(['c1', 'c2'])
    expect((await provider.generate({ messages: user, tools })).content).toBe('done')
  })

  it('answers other routes with 404 and a failing step with 500', async () => {
    const s = await start([() => { throw new Error('no such step') }])
    const notFound = await fetch(s.baseURL.replace('/v1', '/v1/models'))
    expect(notFound.status).toBe(404)
    const failing = await fetch(`${s.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [] }) })
    expect(failing.status).toBe(500)
    expect(await failing.json()).toMatchObject({ error: { message: 'script step 0 failed: no such step' } })
  })
})
