import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sliceBytes, sliceWindow, windowEnd } from '../src/slice.js'

describe('sliceBytes', () => {
  it('reads a byte range and says whether more remains', () => {
    expect(sliceBytes('hello world', 6, 3)).toEqual({ text: 'wor', offset: 6, nextOffset: 9, totalBytes: 11, more: true })
    expect(sliceBytes('hello', 2, 100)).toEqual({ text: 'llo', offset: 2, nextOffset: 5, totalBytes: 5, more: false })
    expect(sliceBytes('hello', 50, 3)).toEqual({ text: '', offset: 5, nextOffset: 5, totalBytes: 5, more: false })
  })

  it('moves a range onto character boundaries and always advances', () => {
    // '😀' is bytes 1..4 of 'a😀b'.
    expect(sliceBytes('a😀b', 2, 10)).toMatchObject({ text: 'b', offset: 5 })
    expect(sliceBytes('a😀b', 0, 3)).toMatchObject({ text: 'a', nextOffset: 1 })
    expect(sliceBytes('a😀b', 1, 2)).toMatchObject({ text: '😀', offset: 1, nextOffset: 5 })
  })

  it('reassembles the whole text from consecutive reads', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.integer({ min: 1, max: 40 }), (text, limit) => {
      let offset = 0
      let out = ''
      for (;;) {
        const slice = sliceBytes(text, offset, limit)
        out += slice.text
        if (!slice.more) break
        expect(slice.nextOffset).toBeGreaterThan(offset)
        offset = slice.nextOffset
      }
      expect(out).toBe(text)
    }))
  })
})

describe('sliceWindow', () => {
  it('gives what sliceBytes gives, from only the bytes of the range and the few bytes windowEnd adds', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 120 }), fc.integer({ min: 0, max: 500 }), fc.integer({ min: 1, max: 40 }), (text, offset, limit) => {
      const bytes = Buffer.from(text, 'utf8')
      const from = Math.min(offset, bytes.length)
      const window = Uint8Array.from(bytes.subarray(from, Math.min(bytes.length, windowEnd(offset, limit))))
      expect(sliceWindow(window, from, bytes.length, offset, limit)).toEqual(sliceBytes(text, offset, limit))
    }))
  })
})
