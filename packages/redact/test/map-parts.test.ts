import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mapParts } from '../src/index.js'

describe('mapParts', () => {
  it('returns the value itself when nothing changes', () => {
    const value = { a: 1, b: [2] }
    expect(mapParts(value, (part) => part, (name) => name)).toBe(value)
  })

  it('keeps every value when two keys map to the same name: later ones get a numbered suffix', () => {
    const out = mapParts({ k1: 'rm -rf /', k2: 'ls', k3: 'pwd' }, (part) => part, () => 'K')
    expect(Object.entries(out)).toEqual([['K', 'rm -rf /'], ['K (2)', 'ls'], ['K (3)', 'pwd']])
  })

  it('never takes a name another key keeps, changed or not, and keeps "__proto__" a plain key', () => {
    const out = mapParts({ a: 1, 'K (2)': 2, b: 3, K: 4, ['__proto__']: 5 }, (part) => part, (name) => (name.length === 1 ? 'K' : name))
    expect(Object.entries(out)).toEqual([['K', 1], ['K (2)', 2], ['K (3)', 3], ['K (4)', 4], ['__proto__', 5]])
  })

  it('drops no value and keeps the order, whatever the names map to', () => {
    fc.assert(fc.property(fc.dictionary(fc.string({ maxLength: 4 }), fc.nat()), fc.constantFrom('', 'x', 'x (2)'), (record, to) => {
      const out = mapParts(record, (part) => part, (name) => (name.length % 2 === 0 ? to : name)) as Record<string, number>
      expect(Object.values(out)).toEqual(Object.values(record))
    }), { numRuns: 500 })
  })
})
