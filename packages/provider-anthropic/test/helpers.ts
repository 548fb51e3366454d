/**
 * Shared test set-up: a fixture server that answers from a queue of replies, a provider
 * pointed at it with fast backoff, a small request, and a way to drain a stream while keeping
 * what arrived before a failure.
 */
import type { GenerateRequest, StreamEvent } from '@rein/kernel'
import type { HttpDeps } from '@rein/provider-kit'
import { startHttpFixture, type FixtureReply, type FixtureRequest, type HttpFixture } from '@rein/testing'
import type { AnthropicProviderConfig } from '../src/config.js'
import { createProvider } from '../src/provider.js'

/** The key every test uses; no error may ever show it. */
export const KEY = 'sk-ant-test-7f3a9c1e5b2d4f6a'

/** A reply, or a function of the request that returns one. */
export type Scripted = FixtureReply | ((request: FixtureRequest) => FixtureReply)

/** A fixture server that answers the n-th request with the n-th reply (599 past the end). */
export interface ScriptedServer extends HttpFixture {
  script(...replies: Scripted[]): void
}

export async function startServer(...replies: Scripted[]): Promise<ScriptedServer> {
  const queue = [...replies]
  const server = await startHttpFixture((request) => {
    const next = queue.shift()
    if (next === undefined) return { status: 599, body: 'no scripted reply left' }
    return typeof next === 'function' ? next(request) : next
  })
  return { ...server, script: (...more) => { queue.push(...more) } }
}

/** A provider for `server`, with 1ms backoff; `overrides` and `deps` as given. */
export function providerFor(server: HttpFixture, overrides: Partial<AnthropicProviderConfig> = {}, deps: Partial<HttpDeps> = {}) {
  return createProvider({ baseURL: server.url, apiKey: KEY, model: 'claude-test', maxTokens: 1024, retryBaseDelayMs: 1, ...overrides }, deps)
}

/** A small request with one tool. */
export function request(signal?: AbortSignal): GenerateRequest {
  return {
    messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Read a.txt and b.txt' }],
    tools: [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }],
    ...(signal ? { signal } : {}),
  }
}

/** Drains `events`; returns what arrived and the error that ended it, if any. */
export async function drain(events: AsyncIterable<StreamEvent>): Promise<{ events: StreamEvent[], error?: unknown }> {
  const seen: StreamEvent[] = []
  try {
    for await (const e of events) seen.push(e)
    return { events: seen }
  } catch (error) {
    return { events: seen, error }
  }
}

/** The text deltas of `events`, joined. */
export function textOf(events: readonly StreamEvent[]): string {
  return events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('')
}
