import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { budgets } from '../src/bash.js'
import { Capture } from '../src/capture.js'

const bytes = (text: string) => Buffer.byteLength(text)

describe('Capture', () => {
  it('keeps a prefix and a suffix within the budget, however the bytes arrive, with exact counts', () => {
    const char = fc.constantFrom('a', '\n', 'é', '€', '😀')
    const text = fc.array(char, { maxLength: 300 }).map((chars) => chars.join(''))
    fc.assert(fc.property(text, fc.integer({ min: 8, max: 64 }), fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1 }), fc.nat(),
      (input, keep, sizes, budgetSeed) => {
        const raw = Buffer.from(input)
        const capture = new Capture(keep)
        // Feed the raw bytes in chunks of arbitrary sizes, splitting characters.
        for (let at = 0, i = 0; at < raw.length; i++) {
          const size = sizes[i % sizes.length]
          capture.push(raw.subarray(at, at + size))
          at += size
        }
        capture.end()
        const budget = budgetSeed % (keep + 1)
        const kept = capture.kept(budget)
        expect(kept.totalBytes).toBe(raw.length)
        expect(input.startsWith(kept.head)).toBe(true)
        expect(input.endsWith(kept.tail)).toBe(true)
        expect(bytes(kept.head) + bytes(kept.tail)).toBeLessThanOrEqual(budget)
        expect(bytes(kept.head) + bytes(kept.tail) + kept.omittedBytes).toBe(raw.length)
        if (raw.length <= budget) expect(kept.head + kept.tail).toBe(input)
        // At most one character per end is lost to a character boundary.
        if (raw.length > budget) expect(bytes(kept.head) + bytes(kept.tail)).toBeGreaterThan(budget - 8)
      }), { numRuns: 500 })
  })

  it('holds bounded memory on endless output', () => {
    const capture = new Capture(100)
    for (let i = 0; i < 10_000; i++) capture.push(Buffer.from('0123456789'))
    capture.end()
    expect(capture.total).toBe(100_000)
    const kept = capture.kept(100)
    expect(kept.head).toBe('0123456789'.repeat(5))
    expect(kept.tail).toBe('0123456789'.repeat(5))
    expect(kept.omittedBytes).toBe(99_900)
  })
})

describe('budgets', () => {
  it('gives both streams everything when they fit', () => {
    expect(budgets(10, 20, 30)).toEqual([10, 20])
  })

  it('gives the smaller stream up to half and the larger the rest', () => {
    expect(budgets(100, 5, 30)).toEqual([25, 5])
    expect(budgets(5, 100, 30)).toEqual([5, 25])
    expect(budgets(100, 100, 30)).toEqual([15, 15])
    expect(budgets(100, 200, 31)).toEqual([15, 16])
  })
})
