/**
 * The SSE parser yields the same events however the bytes are cut: at every position, inside a
 * UTF-8 character, between `\r` and `\n`; it keeps event names, joins data lines, strips one
 * leading space, skips comments and other fields, delivers an unterminated last event, and
 * passes a source's error on after the events that preceded it. It scans each chunk once (one
 * huge event in many chunks is linear work), and refuses an event larger than its limit.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseSSE, SSEParser, type SSEEvent } from '../src/sse.js'

async function* chunksOf(parts: Uint8Array[]): AsyncGenerator<Uint8Array> { yield* parts }

async function parse(parts: Uint8Array[]): Promise<SSEEvent[]> {
  const out: SSEEvent[] = []
  for await (const event of parseSSE(chunksOf(parts))) out.push(event)
  return out
}

/** The data of each event, in order. */
const data = async (parts: Uint8Array[]) => (await parse(parts)).map((e) => e.data)

const bytes = (text: string) => new TextEncoder().encode(text)

/** Cuts `all` at the given offsets (sorted, deduplicated). */
function cut(all: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => o % (all.length + 1)))].sort((a, b) => a - b)
  const parts: Uint8Array[] = []
  let from = 0
  for (const p of points) { parts.push(all.subarray(from, p)); from = p }
  parts.push(all.subarray(from))
  return parts
}

/** A Chat Completions stream as a server sends it: keep-alive comments, multi-byte text, [DONE]. */
const CHAT_STREAM = [
  ': keep-alive',
  'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}',
  'data: {"choices":[{"index":0,"delta":{"content":"Héllo"},"finish_reason":null}]}',
  'data: {"choices":[{"index":0,"delta":{"content":", 世界"},"finish_reason":null}]}',
  ': keep-alive',
  'data: {"choices":[{"index":0,"delta":{"content":"!"},"finish_reason":null}]}',
  'data: {"choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":21,"completion_tokens":5}}',
  'data: [DONE]',
].join('\n\n') + '\n\n'

const NAMED = 'event: content_block_delta\r\ndata: {"text":"żółw 🐢"}\r\n\r\n: keep-alive\n\nid: 7\nretry: 10\nevent: ping\ndata: a\ndata: b\n\ndata: no name\r\r'
const NAMED_EVENTS = [
  { event: 'content_block_delta', data: '{"text":"żółw 🐢"}' },
  { event: 'ping', data: 'a\nb' },
  { data: 'no name' },
]

describe('parseSSE', () => {
  it('yields the data of each event and skips comments', async () => {
    expect(await data([bytes(': keep-alive\n\ndata: {"a":1}\n\ndata: [DONE]\n\n')])).toEqual(['{"a":1}', '[DONE]'])
  })

  it('accepts \\r\\n and \\r line endings, including a \\r\\n split across chunks', async () => {
    expect(await data([bytes('data: one\r'), bytes('\n\r\ndata: two\r\rdata: three\n\n')])).toEqual(['one', 'two', 'three'])
  })

  it('joins the data lines of one event with a newline and strips one leading space only', async () => {
    expect(await parse([bytes('data:  a\ndata:b\nevent: x\nid: 7\n\n')])).toEqual([{ event: 'x', data: ' a\nb' }])
  })

  it('delivers an unterminated last event at the end of the source', async () => {
    expect(await data([bytes('data: {"a":1}\n\ndata: [DONE]')])).toEqual(['{"a":1}', '[DONE]'])
  })

  it('propagates an error of the source after the events that preceded it', async () => {
    async function* failing() { yield bytes('data: first\n\n'); throw new Error('terminated') }
    const seen: string[] = []
    await expect((async () => { for await (const e of parseSSE(failing())) seen.push(e.data) })()).rejects.toThrow('terminated')
    expect(seen).toEqual(['first'])
  })

  it('yields the same events however the bytes are split (even inside UTF-8 characters)', async () => {
    const all = bytes(CHAT_STREAM.replace(/\n/g, '\r\n'))
    const whole = await parse([all])
    expect(whole).toHaveLength(6)
    expect(whole.at(-1)).toEqual({ data: '[DONE]' })
    await fc.assert(fc.asyncProperty(fc.array(fc.nat(), { maxLength: 40 }), async (offsets) => {
      expect(await parse(cut(all, offsets))).toEqual(whole)
    }))
  })

  it('yields the same named events for every cut of the bytes into two chunks', async () => {
    const all = Buffer.from(NAMED, 'utf8')
    for (let at = 0; at <= all.length; at++) {
      expect(await parse([all.subarray(0, at), all.subarray(at)])).toEqual(NAMED_EVENTS)
    }
  })

  it('yields the same named events when every byte is its own chunk', async () => {
    expect(await parse([...Buffer.from(NAMED, 'utf8')].map((b) => Uint8Array.of(b)))).toEqual(NAMED_EVENTS)
  })
})

describe('SSEParser', () => {
  it('delivers an event whose stream ended without a blank line', () => {
    const parser = new SSEParser()
    expect(parser.push('event: message_stop\ndata: {}')).toEqual([])
    expect(parser.end()).toEqual([{ event: 'message_stop', data: '{}' }])
  })

  it('drops an event without data, and does not carry its name to the next', () => {
    expect(new SSEParser().push('event: ping\n\ndata: x\n\n')).toEqual([{ data: 'x' }])
  })

  it('keeps a \\r\\n together across an empty chunk', () => {
    const parser = new SSEParser()
    expect([...parser.push('data: a\r'), ...parser.push(''), ...parser.push('\ndata: b\n\n')]).toEqual([{ data: 'a\nb' }])
  })

  it('parses one huge event sent in many small chunks, keeping the unfinished line as its pieces', () => {
    // A parser that rescanned all it kept on every chunk took tens of seconds for this; how long
    // it takes is a benchmark's question, not a test's.
    const parser = new SSEParser({ maxEventSize: 64 * 1024 * 1024 })
    const piece = 'a'.repeat(16 * 1024)
    parser.push('data: ')
    for (let i = 0; i < 512; i++) expect(parser.push(piece)).toEqual([])
    const [event] = parser.push('\n\n')
    expect(event?.data.length).toBe(8 * 1024 * 1024)
  })

  it('refuses an event larger than maxEventSize: one unfinished line, or its data lines together', () => {
    const tooLarge = (limit: number) => new Error(`over ${limit}`)
    const line = new SSEParser({ maxEventSize: 10, tooLarge })
    expect(line.push('data: 123')).toEqual([])
    expect(() => line.push('4567')).toThrow('over 10')
    const lines = new SSEParser({ maxEventSize: 10, tooLarge })
    expect(lines.push('data: 1234\ndata: 5678\n')).toEqual([])
    expect(() => lines.push('data: 9\n')).toThrow('over 10')
    expect(() => new SSEParser({ maxEventSize: 10 }).push('data: 12345678901\n')).toThrow('a server-sent event is larger than 10 characters')
  })

  it('counts each event on its own: many events within the limit pass', () => {
    const parser = new SSEParser({ maxEventSize: 10 })
    const events = Array.from({ length: 100 }, () => parser.push(': a comment\ndata: 12345\n\n')).flat()
    expect(events).toHaveLength(100)
  })
})
