/**
 * `wireProvider` against a real 127.0.0.1 server: the wire's target and headers with the user's
 * headers over them, the retry keys from the config and the retryable statuses from the wire,
 * a failed answer handed to the wire's `classify` with its site, and both ways of answering.
 */
import type { AssistantMessage } from '@rein/kernel'
import { fixtureServers, type FixtureReply } from '@rein/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { ProviderBadRequestError, type ProviderError } from '../src/errors.js'
import type { HttpFailure } from '../src/http.js'
import { wireProvider, type WireConfig, type WireFormat } from '../src/provider.js'
import { createRedactor } from '../src/secrets.js'
import { failWith, type RequestSite } from '../src/site.js'
import { ToyAssembler } from './toy-assembler.js'

const servers = fixtureServers()
afterEach(() => servers.closeAll())


interface ToyConfig extends WireConfig { url: string, key: string }
interface ToySite extends RequestSite { kind: 'toy' }

const classified: { failure: HttpFailure, site: ToySite }[] = []

const toy: WireFormat<ToyConfig, ToySite, AssistantMessage> = {
  site: (config) => ({ kind: 'toy', baseURL: config.baseURL, model: config.model, redact: createRedactor([config.key]) }),
  target: (config) => ({ url: `${config.url}/answer`, shownURL: `${config.baseURL}/answer`, headers: { 'x-key': config.key, 'x-wire': 'wire' } }),
  retry: { retryableStatus: (status) => status === 503 },
  classify: (failure, site): ProviderError => {
    classified.push({ failure, site })
    return failWith(site, ProviderBadRequestError, `toy refused: ${failure.body}`, { status: failure.status })
  },
  body: (config, req, stream) => ({ model: config.model, messages: req.messages.length, stream }),
  parse: (text) => ({ role: 'assistant', content: (JSON.parse(text) as { text: string }).text }),
  assembler: () => new ToyAssembler(),
}

async function providerFor(replies: FixtureReply[], overrides: Partial<ToyConfig> = {}) {
  const server = await servers.serve((index) => replies[index] ?? { status: 599, body: 'no scripted reply left' })
  const config: ToyConfig = {
    url: server.url, key: 'toy-key-0123456789', model: 'toy-1', baseURL: 'http://toy.example',
    headers: { 'x-wire': 'user', 'x-user': 'mine' },
    stream: false, maxRetries: 1, retryBaseDelayMs: 0, maxRetryDelayMs: 0, idleTimeoutMs: 5000,
    ...overrides,
  }
  return { server, provider: wireProvider(config, toy) }
}

const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] }

describe('wireProvider', () => {
  it('posts to the wire target with its headers under the user\'s, retrying what the wire calls retryable', async () => {
    const { server, provider } = await providerFor([
      { status: 503, body: 'busy' },
      { headers: { 'content-type': 'application/json' }, body: '{"text":"hello"}' },
    ])
    expect([provider.model, provider.baseURL]).toEqual(['toy-1', 'http://toy.example'])
    expect(await provider.generate(request)).toEqual({ role: 'assistant', content: 'hello' })
    expect(server.requests.map((r) => [r.method, r.path])).toEqual([['POST', '/answer'], ['POST', '/answer']])
    const { headers, body } = server.requests[1]!
    expect([headers['x-key'], headers['x-wire'], headers['x-user']]).toEqual(['toy-key-0123456789', 'user', 'mine'])
    expect(body).toEqual({ model: 'toy-1', messages: 1, stream: false })
  })

  it('hands a failed answer to the wire\'s classify with the site, once the config\'s retries are spent', async () => {
    classified.length = 0
    const { server, provider } = await providerFor([{ status: 503, body: 'busy' }, { status: 503, body: 'key toy-key-0123456789 busy' }])
    const error = await provider.generate(request).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderBadRequestError)
    expect((error as Error).message).toContain('toy refused: key [REDACTED] busy')
    expect(server.requests).toHaveLength(2)
    expect(classified.map(({ failure, site }) => [failure.status, failure.attempts, site.kind])).toEqual([[503, 2, 'toy']])
  })

  it('streams deltas then one message when the config streams', async () => {
    const { server, provider } = await providerFor([
      { headers: { 'content-type': 'text/event-stream' }, body: ['data: Hel\n\n', 'data: lo\n\ndata: end\n\n'] },
    ], { stream: true })
    const events = []
    for await (const event of provider.stream(request)) events.push(event)
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' }, { type: 'text-delta', text: 'lo' },
      { type: 'message', message: { role: 'assistant', content: 'Hello' } },
    ])
    expect(server.requests[0]!.body).toEqual({ model: 'toy-1', messages: 1, stream: true })
  })
})
