/**
 * Shared test set-up: a fixture server that answers from a queue of replies, a provider
 * pointed at it with fast backoff, a small request, and a way to drain a stream while keeping
 * what arrived before a failure.
 */
import type { StreamEvent } from '@rein/kernel'
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

/** A small request with one tool, and draining a stream: the shared pieces of `@rein/testing`. */
export { drainStream as drain, oneToolRequest as request } from '@rein/testing'

/** The text deltas of `events`, joined. */
export function textOf(events: readonly StreamEvent[]): string {
  return events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('')
}
