/**
 * Shared test set-up: a provider pointed at a fixture server, a request, and a way to drain a
 * stream while keeping what arrived before a failure.
 */
import { createRedactor, type HttpDeps } from '@rein/provider-kit'
import type { OpenAISite } from '../src/classify.js'
import type { OpenAIProviderConfig } from '../src/config.js'
import { createProvider } from '../src/provider.js'
import type { FixtureServer } from './fixture-server.js'

/** The key every test uses; no message may ever contain it. */
export const KEY = 'sk-test-4f9c2a7e1b3d5f6a'

/** A provider for `server`, with fast backoff; `overrides` and `deps` as given. */
export function providerFor(server: FixtureServer, overrides: Partial<OpenAIProviderConfig> = {}, deps: Partial<HttpDeps> = {}) {
  return createProvider({ baseURL: server.baseURL, apiKey: KEY, model: 'deepseek-chat', retryBaseDelayMs: 1, ...overrides }, deps)
}

/** A request site for unit tests: messages name `baseURL` and `model`, and `apiKey` is redacted. */
export function siteFor(baseURL: string, model: string, apiKey: string): OpenAISite {
  return { baseURL, model, redact: createRedactor([apiKey]), credentials: 'apiKey' }
}

/** A small request with one tool, and draining a stream: the shared pieces of `@rein/testing`. */
export { drainStream as drain, oneToolRequest as request } from '@rein/testing'

/** A promise with its resolver, for ordering without sleeps. */
export function gate<T = void>(): { promise: Promise<T>, resolve: (value: T) => void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => { resolve = r })
  return { promise, resolve }
}
