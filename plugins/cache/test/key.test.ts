import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cacheKey, canonicalJson } from '../src/key.js'

/** `value` with the keys of every object in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)]))
  }
  return value
}

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { f: 1, e: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"e":2,"f":1}]},"b":1}')
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]))
  })

  it('is the same for any key order, and parses back to the same value', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      const text = canonicalJson(value)
      expect(canonicalJson(reversed(value))).toBe(text)
      // -0 is written as -0 (a key of its own), which JSON.stringify would write as 0.
      expect(canonicalJson(JSON.parse(text))).toBe(text)
      expect(JSON.parse(JSON.stringify(JSON.parse(text)))).toEqual(JSON.parse(JSON.stringify(value)))
    }))
  })

  it('differs for values that differ', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
      // Deep equality that tells -0 from 0, as the key does.
      const same = isDeepStrictEqual(JSON.parse(canonicalJson(a)), JSON.parse(canonicalJson(b)))
      expect(canonicalJson(a) === canonicalJson(b)).toBe(same)
    }))
  })
})

describe('cacheKey', () => {
  it('keeps -0 apart from 0, at any depth, and parses back to -0', () => {
    expect(canonicalJson(-0)).toBe('-0')
    expect(cacheKey('fmt', { x: -0 })).not.toBe(cacheKey('fmt', { x: 0 }))
    expect(cacheKey('fmt', [[-0]])).not.toBe(cacheKey('fmt', [[0]]))
    expect(Object.is(JSON.parse(canonicalJson({ x: -0 })).x, -0)).toBe(true)
  })

  it('separates tools and arguments unambiguously', () => {
    expect(cacheKey('a', { x: 1 })).not.toBe(cacheKey('b', { x: 1 }))
    expect(cacheKey('a', { x: 1 })).toBe(cacheKey('a', { x: 1 }))
    expect(cacheKey('a', '1')).not.toBe(cacheKey('a', 1))
  })
})

describe('cacheKey with a session', () => {
  it('never meets the key without a session, nor another session\'s', () => {
    const keys = [cacheKey('t', {}), cacheKey('t', {}, 'alice'), cacheKey('t', {}, 'bob'), cacheKey('t', {}, '')]
    expect(new Set(keys).size).toBe(4)
    expect(cacheKey('t', { a: 1 }, 'alice')).toBe(cacheKey('t', { a: 1 }, 'alice'))
  })
})
