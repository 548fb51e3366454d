import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { headBytes, headTailBytes, tailBytes } from '../src/text.js'
import { budget, encode, isValidUtf8, text, wellFormedText, widthAt } from './arbitraries.js'

describe('headBytes', () => {
  it('keeps the longest prefix that fits and counts the rest exactly', () => {
    expect(headBytes('héllo', 3)).toEqual({ text: 'hé', keptBytes: 3, omittedBytes: 3, totalBytes: 6 })
    expect(headBytes('a😀b', 4)).toEqual({ text: 'a', keptBytes: 1, omittedBytes: 5, totalBytes: 6 })
    expect(headBytes('short', 100)).toEqual({ text: 'short', keptBytes: 5, omittedBytes: 0, totalBytes: 5 })
    expect(headBytes('abc', Infinity).omittedBytes).toBe(0)
  })

  it('rejects a budget that is not a non-negative integer', () => {
    expect(() => headBytes('x', -1)).toThrow(/maxBytes must be a non-negative integer/)
    expect(() => headBytes('x', 1.5)).toThrow(RangeError)
    expect(() => headBytes('x', Number.NaN)).toThrow(RangeError)
  })

  it('is a byte prefix of the input, valid UTF-8, within budget, exact and maximal', () => {
    fc.assert(fc.property(text, budget, (s, b) => {
      const r = headBytes(s, b)
      const all = encode(s)
      expect(s.startsWith(r.text)).toBe(true)
      expect(r.keptBytes).toBeLessThanOrEqual(Math.max(b, 0))
      expect(encode(r.text).equals(all.subarray(0, r.keptBytes))).toBe(true)
      expect(isValidUtf8(all.subarray(0, r.keptBytes))).toBe(true)
      expect(r.keptBytes + r.omittedBytes).toBe(all.length)
      expect(r.totalBytes).toBe(all.length)
      if (r.omittedBytes > 0) expect(r.keptBytes + widthAt(s, r.text.length)).toBeGreaterThan(b)
    }))
  })
})

describe('tailBytes', () => {
  it('keeps the longest suffix that fits and counts the rest exactly', () => {
    expect(tailBytes('héllo', 3)).toEqual({ text: 'llo', keptBytes: 3, omittedBytes: 3, totalBytes: 6 })
    expect(tailBytes('a😀', 3)).toEqual({ text: '', keptBytes: 0, omittedBytes: 5, totalBytes: 5 })
  })

  it('is a byte suffix of the input, valid UTF-8, within budget, exact and maximal', () => {
    fc.assert(fc.property(text, budget, (s, b) => {
      const r = tailBytes(s, b)
      const all = encode(s)
      expect(s.endsWith(r.text)).toBe(true)
      expect(r.keptBytes).toBeLessThanOrEqual(b)
      expect(encode(r.text).equals(all.subarray(all.length - r.keptBytes))).toBe(true)
      expect(isValidUtf8(all.subarray(all.length - r.keptBytes))).toBe(true)
      expect(r.keptBytes + r.omittedBytes).toBe(all.length)
      if (r.omittedBytes > 0) {
        const start = s.length - r.text.length
        const before = start >= 2 && /[\uD800-\uDBFF][\uDC00-\uDFFF]/.test(s.slice(start - 2, start)) ? start - 2 : start - 1
        expect(r.keptBytes + widthAt(s, before)).toBeGreaterThan(b)
      }
    }))
  })
})

describe('headTailBytes', () => {
  it('returns the whole text as the head when it fits', () => {
    expect(headTailBytes('abc', 3)).toEqual({ head: 'abc', tail: '', headBytes: 3, tailBytes: 0, omittedBytes: 0, totalBytes: 3 })
  })

  it('splits the budget by headRatio and gives the head slack to the tail', () => {
    expect(headTailBytes('0123456789', 4)).toMatchObject({ head: '01', tail: '89', omittedBytes: 6 })
    expect(headTailBytes('0123456789', 4, { headRatio: 0.25 })).toMatchObject({ head: '0', tail: '789' })
    // The 4-byte emoji does not fit the head's 3 bytes, so the tail gets all 6.
    expect(headTailBytes('😀123456789', 6)).toMatchObject({ head: '', tail: '456789', omittedBytes: 7 })
  })

  it('honours an exact head budget', () => {
    expect(headTailBytes('Error: boom\nmore text here', 14, { headBudget: 12 })).toMatchObject({
      head: 'Error: boom\n', tail: 're', headBytes: 12, tailBytes: 2, omittedBytes: 12,
    })
  })

  it('rejects a bad ratio', () => {
    expect(() => headTailBytes('abcdef', 2, { headRatio: 2 })).toThrow(/headRatio must be a number from 0 to 1/)
  })

  it('keeps a prefix and a suffix that never overlap, within budget, with the exact omitted count', () => {
    fc.assert(fc.property(wellFormedText, budget, fc.double({ min: 0, max: 1, noNaN: true }), (s, b, ratio) => {
      const r = headTailBytes(s, b, { headRatio: ratio })
      const all = encode(s)
      expect(s.startsWith(r.head)).toBe(true)
      expect(s.endsWith(r.tail)).toBe(true)
      expect(r.head.length + r.tail.length).toBeLessThanOrEqual(s.length)
      expect(r.headBytes + r.tailBytes).toBeLessThanOrEqual(b)
      expect(r.headBytes + r.tailBytes + r.omittedBytes).toBe(all.length)
      expect(encode(r.head).length).toBe(r.headBytes)
      expect(encode(r.tail).length).toBe(r.tailBytes)
      expect(isValidUtf8(encode(r.head))).toBe(true)
      const middle = s.slice(r.head.length, s.length - r.tail.length)
      expect(encode(middle).length).toBe(r.omittedBytes)
    }))
  })
})
