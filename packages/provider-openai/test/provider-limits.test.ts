/**
 * What one streamed answer may hold, against a real 127.0.0.1 server that keeps sending: its text
 * and tool arguments together at most the kit's cap, and at most `MAX_ANSWER_PARTS` tool calls.
 * Past either the stream ends with PROVIDER_BAD_RESPONSE and the connection is closed (the server
 * never ends the response: only the client can). The size test lowers the cap, so no test holds
 * megabytes.
 */
import { MAX_ANSWER_PARTS, wireProvider, type AnswerLimits } from '@rein/provider-kit'
import { afterEach, describe, expect, it } from 'vitest'
import { resolveConfig } from '../src/config.js'
import { PROVIDER_BAD_RESPONSE } from '../src/index.js'
import { chatCompletions, createProvider } from '../src/provider.js'
import { StreamAssembler } from '../src/stream-assembler.js'
import { drain, KEY, request } from './helpers.js'
import { startStreamServer, type StreamServer } from '@rein/testing'

/** Only reached by a client that keeps waiting after the last event (which these tests must not). */
const IDLE_MS = 1_000

let server: StreamServer | undefined
afterEach(async () => { await server?.close(); server = undefined })

const config = (url: string) => ({ baseURL: url, apiKey: KEY, model: 'deepseek-chat', idleTimeoutMs: IDLE_MS })
const text = (content: string) => JSON.stringify({ choices: [{ index: 0, delta: { content } }] })
const call = (index: number | undefined, id: string | undefined, args: string) =>
  JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ ...(index === undefined ? {} : { index }), ...(id === undefined ? {} : { id }), function: { name: 'f', arguments: args } }] } }] })

/** The provider over the real wire, its assembler given `limits`. */
function providerWith(url: string, limits: AnswerLimits) {
  return wireProvider(resolveConfig(config(url)), { ...chatCompletions, assembler: (site) => new StreamAssembler(site, limits) })
}

describe('a streamed answer', () => {
  it('ends with PROVIDER_BAD_RESPONSE once its text and tool arguments together pass the cap, and closes the connection', async () => {
    const piece = 'x'.repeat(100)
    server = await startStreamServer(function* () {
      for (let i = 0; i < 6; i++) yield text(piece)
      yield call(0, 'c1', '')
      for (let i = 0; i < 100; i++) yield call(0, undefined, piece)
    })
    const { events, error } = await drain(providerWith(server.url, { maxSize: 1_000 }).stream(request()))
    expect(error).toMatchObject({
      code: PROVIDER_BAD_RESPONSE,
      message: `${server.url} streamed an answer of more than 1000 characters (its text and tool calls together), far more than any model answer; reading stopped there`,
    })
    expect(events).toEqual(Array.from({ length: 6 }, () => ({ type: 'text-delta', text: piece })))
    await server.left
  })

  it(`carries at most ${MAX_ANSWER_PARTS} tool calls: 200,000 calls and one without an index end with PROVIDER_BAD_RESPONSE`, async () => {
    server = await startStreamServer(function* () {
      for (let i = 0; i < 200_000; i++) yield call(i, `c${i}`, '{}')
      yield call(undefined, undefined, '{}')
    })
    const { error } = await drain(createProvider(config(server.url)).stream(request()))
    expect(error).toMatchObject({ code: PROVIDER_BAD_RESPONSE, message: expect.stringContaining(`streamed an answer of more than ${MAX_ANSWER_PARTS} tool calls or content blocks`) })
    await server.left
    expect(server.sent()).toBeLessThan(200_001)
  })
})
