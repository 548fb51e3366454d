/**
 * The SSE parser yields the same events however the bytes are cut: at every position, inside a
 * UTF-8 character, between `\r` and `\n`; it keeps event names, joins data lines, skips
 * comments and other fields, and delivers an unterminated last event.
 */
import { describe, expect, it } from 'vitest'
import { parseSSE, SSEParser } from '../src/sse.js'

async function parse(chunks: Uint8Array[]) {
  const out = []
  for await (const e of parseSSE((async function* () { yield* chunks })())) out.push(e)
  return out
}

const TEXT = 'event: content_block_delta\r\ndata: {"text":"żółw 🐢"}\r\n\r\n: keep-alive\n\nid: 7\nretry: 10\nevent: ping\ndata: a\ndata: b\n\ndata: no name\r\r'
const EXPECTED = [
  { event: 'content_block_delta', data: '{"text":"żółw 🐢"}' },
  { event: 'ping', data: 'a\nb' },
  { data: 'no name' },
]

describe('parseSSE', () => {
  it('yields the same events for every cut of the bytes into two chunks', async () => {
    const bytes = Buffer.from(TEXT, 'utf8')
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(await parse([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(EXPECTED)
    }
  })

  it('yields the same events when every byte is its own chunk', async () => {
    const bytes = Buffer.from(TEXT, 'utf8')
    expect(await parse([...bytes].map((b) => Uint8Array.of(b)))).toEqual(EXPECTED)
  })

  it('delivers an event whose stream ended without a blank line', () => {
    const parser = new SSEParser()
    expect(parser.push('event: message_stop\ndata: {}')).toEqual([])
    expect(parser.end()).toEqual([{ event: 'message_stop', data: '{}' }])
  })

  it('drops an event without data, and does not carry its name to the next', () => {
    expect(new SSEParser().push('event: ping\n\ndata: x\n\n')).toEqual([{ data: 'x' }])
  })
})
