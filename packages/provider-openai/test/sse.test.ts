import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseSSE } from '../src/sse.js'
import { fixture } from './fixture-server.js'

async function* chunksOf(parts: Uint8Array[]): AsyncGenerator<Uint8Array> { yield* parts }

async function events(parts: Uint8Array[]): Promise<string[]> {
  const out: string[] = []
  for await (const data of parseSSE(chunksOf(parts))) out.push(data)
  return out
}

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

describe('parseSSE', () => {
  it('yields the data of each event and skips comments', async () => {
    expect(await events([bytes(': keep-alive\n\ndata: {"a":1}\n\ndata: [DONE]\n\n')])).toEqual(['{"a":1}', '[DONE]'])
  })

  it('accepts \\r\\n and \\r line endings, including a \\r\\n split across chunks', async () => {
    expect(await events([bytes('data: one\r'), bytes('\n\r\ndata: two\r\rdata: three\n\n')])).toEqual(['one', 'two', 'three'])
  })

  it('joins the data lines of one event with a newline and strips one leading space only', async () => {
    expect(await events([bytes('data:  a\ndata:b\nevent: x\nid: 7\n\n')])).toEqual([' a\nb'])
  })

  it('delivers an unterminated last event at the end of the source', async () => {
    expect(await events([bytes('data: {"a":1}\n\ndata: [DONE]')])).toEqual(['{"a":1}', '[DONE]'])
  })

  it('propagates an error of the source after the events that preceded it', async () => {
    async function* failing() { yield bytes('data: first\n\n'); throw new Error('terminated') }
    const seen: string[] = []
    await expect((async () => { for await (const d of parseSSE(failing())) seen.push(d) })()).rejects.toThrow('terminated')
    expect(seen).toEqual(['first'])
  })

  it('yields the same events however the bytes are split (even inside UTF-8 characters)', async () => {
    const all = bytes(fixture('stream-text.sse').replace(/\n/g, '\r\n'))
    const whole = await events([all])
    expect(whole).toHaveLength(6)
    expect(whole.at(-1)).toBe('[DONE]')
    await fc.assert(fc.asyncProperty(fc.array(fc.nat(), { maxLength: 40 }), async (offsets) => {
      expect(await events(cut(all, offsets))).toEqual(whole)
    }))
  })
})
