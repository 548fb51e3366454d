import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { utf8Length } from '@rein/retention'
import { buildPreview, capCanHoldNotice, maxNoticeBytes } from '../src/preview.js'

const saved = { locator: 'spill_0123', retrievalHint: 'call read_spilled({ locator: "spill_0123", offset, limit })' }

describe('buildPreview', () => {
  it('lays out head, notice with the exact omitted count and offset, then tail', () => {
    const text = 'A'.repeat(1000) + 'B'.repeat(1000)
    const p = buildPreview(text, 500, saved)!
    expect(p.text.startsWith('A'.repeat(p.headBytes))).toBe(true)
    expect(p.text.endsWith('B'.repeat(p.tailBytes))).toBe(true)
    expect(p.omittedBytes).toBe(2000 - p.headBytes - p.tailBytes)
    expect(p.text).toContain(`[... ${p.omittedBytes} bytes omitted here, starting at byte offset ${p.headBytes} of 2000.`)
    expect(p.text).toContain('locator "spill_0123": call read_spilled({ locator: "spill_0123", offset, limit })')
    expect(utf8Length(p.text)).toBeLessThanOrEqual(500)
  })

  it('returns undefined when the cap cannot hold the notice', () => {
    expect(buildPreview('x'.repeat(1000), 100, saved)).toBeUndefined()
    expect(capCanHoldNotice(100, 1000, false)).toBe(false)
  })

  it('keeps the first line of an error whole when it fits', () => {
    const text = 'Error: command failed with exit code 2\n' + 'noise\n'.repeat(1000)
    const p = buildPreview(text, 400, saved, { isError: true })!
    expect(p.text.startsWith('Error: command failed with exit code 2\n')).toBe(true)
  })

  it('keeps at least the Error: prefix of a one-line error larger than the budget', () => {
    const text = 'Error: ' + 'z'.repeat(5000)
    const cap = maxNoticeBytes(utf8Length(text), saved.locator, saved.retrievalHint) + 7
    expect(buildPreview(text, cap, saved, { isError: true })!.text.startsWith('Error: ')).toBe(true)
    expect(buildPreview(text, cap - 1, saved, { isError: true })).toBeUndefined()
  })

  it('always fits the cap, reports the omitted bytes exactly, and shows a true prefix and suffix', () => {
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 400 })
    fc.assert(fc.property(text, fc.integer({ min: 1, max: 600 }), fc.boolean(), (body, cap, isError) => {
      const s = isError ? `Error: ${body}` : body
      const total = utf8Length(s)
      fc.pre(total > cap)
      const p = buildPreview(s, cap, saved, { isError })
      if (!p) {
        expect(cap - maxNoticeBytes(total, saved.locator, saved.retrievalHint)).toBeLessThan(isError ? 7 : 0)
        return
      }
      expect(utf8Length(p.text)).toBeLessThanOrEqual(cap)
      const head = s.slice(0, sliceLength(s, p.headBytes))
      expect(p.text.startsWith(head)).toBe(true)
      expect(p.headBytes + p.tailBytes + p.omittedBytes).toBe(total)
      expect(p.omittedBytes).toBeGreaterThan(0)
      expect(p.text).toContain(` ${p.omittedBytes} bytes omitted here, starting at byte offset ${p.headBytes} of ${total}.`)
      const tail = Buffer.from(s).subarray(total - p.tailBytes).toString()
      expect(p.text.endsWith(tail)).toBe(true)
      if (isError) expect(p.text.startsWith('Error: ')).toBe(true)
    }), { numRuns: 300 })
  })
})

/** The UTF-16 length of the prefix of `s` that is `bytes` UTF-8 bytes long. */
function sliceLength(s: string, bytes: number): number {
  let i = 0
  let b = 0
  while (b < bytes) {
    const cp = s.codePointAt(i)!
    b += utf8Length(String.fromCodePoint(cp))
    i += cp > 0xffff ? 2 : 1
  }
  return i
}
