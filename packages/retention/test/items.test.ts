import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { headItems, headTailItems, tailItems } from '../src/items.js'

describe('headItems and tailItems', () => {
  it('keep the first or last items and count the rest', () => {
    expect(headItems([1, 2, 3, 4], 3)).toEqual({ items: [1, 2, 3], omitted: 1, total: 4 })
    expect(tailItems([1, 2, 3, 4], 3)).toEqual({ items: [2, 3, 4], omitted: 1, total: 4 })
    expect(tailItems([1, 2], 0)).toEqual({ items: [], omitted: 2, total: 2 })
    expect(headItems([1, 2], Infinity)).toEqual({ items: [1, 2], omitted: 0, total: 2 })
  })

  it('never change the input', () => {
    const input = Object.freeze([1, 2, 3])
    expect(headItems(input, 2).items).not.toBe(input)
    expect(tailItems(input, 5).items).toEqual([1, 2, 3])
  })

  it('reject a count that is not a non-negative integer', () => {
    expect(() => headItems([1], -2)).toThrow(/maxItems must be a non-negative integer/)
    expect(() => tailItems([1], 0.5)).toThrow(RangeError)
  })
})

describe('headTailItems', () => {
  it('keeps both ends and counts the middle', () => {
    expect(headTailItems([1, 2, 3, 4, 5, 6], 3)).toEqual({ head: [1], tail: [5, 6], omitted: 3, total: 6 })
    expect(headTailItems([1, 2, 3], 3)).toEqual({ head: [1, 2, 3], tail: [], omitted: 0, total: 3 })
    expect(headTailItems([1, 2, 3, 4], 2, { headRatio: 1 })).toEqual({ head: [1, 2], tail: [], omitted: 2, total: 4 })
  })

  it('reconstructs the input from head, omitted middle and tail', () => {
    fc.assert(fc.property(fc.array(fc.integer()), fc.nat(40), fc.double({ min: 0, max: 1, noNaN: true }), (xs, max, ratio) => {
      const r = headTailItems(xs, max, { headRatio: ratio })
      expect(r.head.length + r.tail.length).toBeLessThanOrEqual(max)
      expect(r.head.length + r.omitted + r.tail.length).toBe(xs.length)
      expect([...r.head, ...xs.slice(r.head.length, r.head.length + r.omitted), ...r.tail]).toEqual(xs)
      expect(r.head).toEqual(xs.slice(0, r.head.length))
    }))
  })

  it('keeps exactly min(total, max) items from either end', () => {
    fc.assert(fc.property(fc.array(fc.string()), fc.nat(40), (xs, max) => {
      const h = headItems(xs, max)
      const t = tailItems(xs, max)
      expect(h.items).toEqual(xs.slice(0, Math.min(max, xs.length)))
      expect(t.items).toEqual(xs.slice(xs.length - Math.min(max, xs.length)))
      expect(h.items.length + h.omitted).toBe(xs.length)
      expect(t.items.length + t.omitted).toBe(xs.length)
    }))
  })
})
