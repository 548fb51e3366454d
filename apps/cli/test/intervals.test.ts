/** Which calls ran at the same time. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { concurrentGroups, span } from '../src/intervals.js'

const iv = (id: string, start: number, end: number) => ({ id, start, end })
const ids = (groups: { id: string }[][]) => groups.map((g) => g.map((i) => i.id))

describe('concurrentGroups', () => {
  it('puts overlapping intervals together and a barrier alone', () => {
    expect(ids(concurrentGroups([iv('a', 0, 10), iv('b', 2, 5), iv('w', 10, 12), iv('c', 12, 20), iv('d', 15, 16)])))
      .toEqual([['a', 'b'], ['w'], ['c', 'd']])
  })

  it('chains overlaps: a group lasts until every member has ended', () => {
    expect(ids(concurrentGroups([iv('a', 0, 5), iv('b', 4, 9), iv('c', 8, 12), iv('d', 12, 13)]))).toEqual([['a', 'b', 'c'], ['d']])
  })

  it('orders by start whatever the input order, ties in input order', () => {
    expect(ids(concurrentGroups([iv('late', 50, 60), iv('x', 0, 1), iv('y', 0, 1)]))).toEqual([['x', 'y'], ['late']])
  })

  it('never leaves an interval out, and groups never overlap each other', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.nat(100), fc.nat(50)), { maxLength: 30 }), (pairs) => {
      const items = pairs.map(([start, length], i) => iv(String(i), start, start + length))
      const groups = concurrentGroups(items)
      expect(groups.flat()).toHaveLength(items.length)
      for (let g = 1; g < groups.length; g++) {
        expect(Math.min(...groups[g].map((i) => i.start))).toBeGreaterThanOrEqual(Math.max(...groups[g - 1].map((i) => i.end)))
      }
    }))
  })

  it('measures the span from the first start to the last end', () => {
    expect(span([iv('a', 5, 10), iv('b', 7, 30)])).toBe(25)
    expect(span([])).toBe(0)
  })
})
