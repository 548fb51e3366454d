import { describe, expect, it } from 'vitest'
import { TtlLru } from '../src/store.js'

function make(maxEntries: number, ttlMs: number) {
  const clock = { t: 0 }
  return { clock, store: new TtlLru<string>(maxEntries, ttlMs, () => clock.t) }
}

describe('TtlLru', () => {
  it('returns a value until ttlMs after it was stored, then drops it', () => {
    const { clock, store } = make(10, 100)
    store.set('k', 'v')
    clock.t = 99
    expect(store.get('k')).toBe('v')
    clock.t = 100
    expect([store.get('k'), store.size]).toEqual([undefined, 0])
  })

  it('counts the TTL from the last store, not from the last read', () => {
    const { clock, store } = make(10, 100)
    store.set('k', 'v1')
    clock.t = 90
    store.get('k')
    clock.t = 100
    expect(store.get('k')).toBeUndefined()
    store.set('k', 'v2')
    clock.t = 199
    expect(store.get('k')).toBe('v2')
  })

  it('evicts the least recently used beyond maxEntries', () => {
    const { store } = make(2, 1000)
    store.set('a', '1')
    store.set('b', '2')
    store.get('a')
    store.set('c', '3')
    expect([store.get('a'), store.get('b'), store.get('c'), store.size]).toEqual(['1', undefined, '3', 2])
  })

  it('keeps nothing when maxEntries or ttlMs is 0', () => {
    for (const [max, ttl] of [[0, 1000], [10, 0]]) {
      const { store } = make(max, ttl)
      store.set('a', '1')
      expect([store.get('a'), store.size]).toEqual([undefined, 0])
    }
  })

  it('drops every entry on clear', () => {
    const { store } = make(10, 1000)
    store.set('a', '1')
    store.set('b', '2')
    store.clear()
    expect([store.get('a'), store.get('b'), store.size]).toEqual([undefined, undefined, 0])
  })
})
