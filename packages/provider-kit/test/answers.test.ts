/**
 * `stream` and `generate` over a wire: deltas then exactly one message, read up to the wire's
 * end event; a non-streamed answer replayed as one delta and the message; a JSON body to a
 * streamed request read whole; an abort between events rejects as an abort; a body or an event
 * past its size limit fails as a bad response, without reading the rest.
 */
import type { AssistantMessage } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { answers, type Wire } from '../src/answers.js'
import { PROVIDER_ABORTED, PROVIDER_BAD_RESPONSE } from '../src/codes.js'
import type { HttpDeps } from '../src/http.js'
import { MAX_BODY_BYTES, MAX_SSE_EVENT_SIZE } from '../src/limits.js'
import { transientStatus } from '../src/retry.js'
import { createRedactor } from '../src/secrets.js'
import { ToyAssembler } from './toy-assembler.js'


const site = { baseURL: 'http://toy', model: 'm', redact: createRedactor([]) }
const bodies: unknown[] = []

function wire(stream: boolean): Wire<AssistantMessage> {
  return {
    endpoint: {
      url: 'http://toy/answer', shownURL: 'http://toy/answer', headers: {}, configuredHeaders: {}, site,
      retry: { maxRetries: 0, retryBaseDelayMs: 1, maxRetryDelayMs: 1, retryableStatus: transientStatus },
      classify: () => { throw new Error('no failure expected') },
    },
    stream,
    body: (req, asked) => { bodies.push({ n: req.messages.length, stream: asked }); return {} },
    parse: (text) => ({ role: 'assistant', content: (JSON.parse(text) as { text: string }).text }),
    assembler: () => new ToyAssembler(),
  }
}

/** A fetch that answers every request with `body` of `type`. */
function serving(body: string, type: string): Partial<HttpDeps> {
  return { fetch: async () => new Response(body, { headers: { 'content-type': type } }) }
}

const request = (signal?: AbortSignal) => ({ messages: [{ role: 'user' as const, content: 'hi' }], tools: [], ...(signal ? { signal } : {}) })
const SSE = 'data: Hel\n\ndata: lo\n\ndata: end\n\ndata: never read\n\n'

async function all<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const e of events) out.push(e)
  return out
}

describe('answers', () => {
  it('streams the deltas, then one message, and stops at the wire\'s end event', async () => {
    const toy = answers(wire(true), serving(SSE, 'text/event-stream'))
    expect(await all(toy.stream(request()))).toEqual([
      { type: 'text-delta', text: 'Hel' }, { type: 'text-delta', text: 'lo' },
      { type: 'message', message: { role: 'assistant', content: 'Hello' } },
    ])
    expect(await toy.generate(request())).toEqual({ role: 'assistant', content: 'Hello' })
  })

  it('asks for a whole answer when the wire does not stream, and replays it as one delta and the message', async () => {
    bodies.length = 0
    const toy = answers(wire(false), serving('{"text":"whole"}', 'application/json'))
    expect(await toy.generate(request())).toEqual({ role: 'assistant', content: 'whole' })
    expect(await all(toy.stream(request()))).toEqual([{ type: 'text-delta', text: 'whole' }, { type: 'message', message: { role: 'assistant', content: 'whole' } }])
    expect(bodies).toEqual([{ n: 1, stream: false }, { n: 1, stream: false }])
  })

  it('reads a JSON body whole when it asked for a stream, and gives an empty answer no delta', async () => {
    const toy = answers(wire(true), serving('{"text":""}', 'application/json; charset=utf-8'))
    expect(await all(toy.stream(request()))).toEqual([{ type: 'message', message: { role: 'assistant', content: '' } }])
  })

  it('rejects as an abort when the signal fires between events', async () => {
    const controller = new AbortController()
    const events = answers(wire(true), serving(SSE, 'text/event-stream')).stream(request(controller.signal))[Symbol.asyncIterator]()
    expect(await events.next()).toEqual({ done: false, value: { type: 'text-delta', text: 'Hel' } })
    controller.abort()
    await expect(events.next()).rejects.toMatchObject({ code: PROVIDER_ABORTED, name: 'AbortError' })
  })

  /** A fetch whose body is `head`, then 32 MiB of `a` (counting what was pulled), of `type`. */
  function oversized(head: string, type: string): { deps: Partial<HttpDeps>, pulled: () => number } {
    let pulled = 0
    const piece = new Uint8Array(1024 * 1024).fill(0x61)
    const body = new ReadableStream<Uint8Array>({
      start(controller) { controller.enqueue(new TextEncoder().encode(head)) },
      pull(controller) {
        if (pulled >= 32 * piece.byteLength) { controller.close(); return }
        pulled += piece.byteLength
        controller.enqueue(piece)
      },
    }, { highWaterMark: 0 })
    return { deps: { fetch: async () => new Response(body, { headers: { 'content-type': type } }) }, pulled: () => pulled }
  }

  it('stops reading a whole answer past MAX_BODY_BYTES, with a bad-response error', async () => {
    const { deps, pulled } = oversized('{"text":"', 'application/json')
    await expect(answers(wire(false), deps).generate(request())).rejects.toMatchObject({
      code: PROVIDER_BAD_RESPONSE, message: 'the answer from http://toy/answer is larger than 16 MiB, far more than any model answer; reading stopped there',
    })
    expect(pulled()).toBeLessThanOrEqual(MAX_BODY_BYTES + 2 * 1024 * 1024)
  })

  it('stops reading a server-sent event past MAX_SSE_EVENT_SIZE, with a bad-response error', async () => {
    const { deps, pulled } = oversized('data: ', 'text/event-stream')
    await expect(all(answers(wire(true), deps).stream(request()))).rejects.toMatchObject({
      code: PROVIDER_BAD_RESPONSE, message: 'http://toy/answer sent a server-sent event larger than 16 MiB, far more than any model answer; reading stopped there',
    })
    expect(pulled()).toBeLessThanOrEqual(MAX_SSE_EVENT_SIZE + 2 * 1024 * 1024)
  })
})
