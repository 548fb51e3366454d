import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countUtf8Bytes, prefixCut, suffixCut, utf8Length } from '../src/utf8.js'
import { budget, encode, text } from './arbitraries.js'

describe.each([['utf8Length', utf8Length], ['countUtf8Bytes', countUtf8Bytes]])('%s', (_, count) => {
  it('counts 1-, 2-, 3- and 4-byte characters', () => {
    expect(count('')).toBe(0)
    expect(count('a')).toBe(1)
    expect(count('é')).toBe(2)
    expect(count('€')).toBe(3)
    expect(count('😀')).toBe(4)
    expect(count('👍🏽')).toBe(8)
  })

  it('counts a lone surrogate as the 3-byte U+FFFD it encodes to', () => {
    expect(count('\uD800')).toBe(3)
    expect(count('x\uDC00')).toBe(4)
    expect(count('\uDC00\uD800')).toBe(6)
    expect(count('\uD800\uD800\uDC00')).toBe(7)
  })

  it('agrees with Buffer.byteLength and TextEncoder on any text', () => {
    fc.assert(fc.property(text, (s) => count(s) === Buffer.byteLength(s, 'utf8') && count(s) === new TextEncoder().encode(s).length))
  })
})

describe('prefixCut and suffixCut', () => {
  it('never cut a surrogate pair', () => {
    expect(prefixCut('😀😀', 7)).toEqual({ index: 2, bytes: 4 })
    expect(prefixCut('😀', 3)).toEqual({ index: 0, bytes: 0 })
    expect(suffixCut('😀😀', 7)).toEqual({ index: 2, bytes: 4 })
    expect(suffixCut('a😀', 3)).toEqual({ index: 3, bytes: 0 })
  })

  it('split any text into parts whose bytes add up to the whole', () => {
    fc.assert(fc.property(text, budget, (s, b) => {
      const p = prefixCut(s, b)
      const q = suffixCut(s, b)
      expect(p.bytes).toBeLessThanOrEqual(b)
      expect(q.bytes).toBeLessThanOrEqual(b)
      expect(p.bytes).toBe(encode(s.slice(0, p.index)).length)
      expect(encode(s.slice(0, p.index)).length + encode(s.slice(p.index)).length).toBe(encode(s).length)
      expect(encode(s.slice(0, q.index)).length + encode(s.slice(q.index)).length).toBe(encode(s).length)
    }))
  })
})
