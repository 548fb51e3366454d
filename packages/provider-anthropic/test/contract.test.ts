/**
 * The shared Provider contract suite from `@rein/testing`, run against this provider over a
 * real 127.0.0.1 server speaking the Messages API, streamed and not.
 */
import { startHttpFixture, testProvider, type FixtureReply, type FixtureScript, type ProviderAdapter } from '@rein/testing'
import { describe, it } from 'vitest'
import { createProvider } from '../src/provider.js'
import { answerEvents, answerReply, errorBody, jsonReply, receivedOf, sse, sseReply } from './wire.js'

const ERROR_TYPES: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error' }

/** The Messages API's answer to one request under `script`. */
function reply(script: FixtureScript, body: any): FixtureReply {
  switch (script.kind) {
    case 'answer': return answerReply({ body }, script.message)
    case 'stall': return body?.stream ? sseReply(sse(answerEvents({ role: 'assistant', content: script.text }).slice(0, 4)), { then: 'hang' }) : { silent: true }
    case 'fail': return jsonReply(errorBody(ERROR_TYPES[script.status] ?? 'api_error', script.message), script.status)
  }
}

function overLoopback(stream: boolean): ProviderAdapter {
  return {
    async start(script, { apiKey }) {
      const server = await startHttpFixture((request) => reply(script, request.body))
      return {
        provider: createProvider({ baseURL: server.url, apiKey, model: 'claude-test', maxTokens: 256, stream }),
        received: () => server.requests.map((r) => receivedOf(r.body)),
        close: () => server.close(),
      }
    },
  }
}

testProvider('anthropic over SSE', overLoopback(true), { describe, it })
testProvider('anthropic without streaming', overLoopback(false), { describe, it })
