import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { abortableSleep, backoffDelay } from '../src/backoff.js'

afterEach(() => { vi.useRealTimers() })

describe('backoffDelay', () => {
  it('is a whole number in [0, min(maxDelayMs, baseDelayMs * 2^(retry-1)))', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 100_000 }),
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      (retry, base, max, r) => {
        const delay = backoffDelay(retry, base, max, () => r)
        const cap = Math.min(max, base * 2 ** (retry - 1))
        expect(Number.isInteger(delay)).toBe(true)
        expect(delay).toBeGreaterThanOrEqual(0)
        if (cap > 0) expect(delay).toBeLessThan(cap)
        else expect(delay).toBe(0)
      }))
  })

  it('spans the whole range: 0 for random() = 0, just under the cap near 1', () => {
    expect(backoffDelay(3, 200, 10_000, () => 0)).toBe(0)
    expect(backoffDelay(3, 200, 10_000, () => 0.9999)).toBe(799)
    expect(backoffDelay(30, 200, 10_000, () => 0.9999)).toBe(9999)
  })
})

describe('abortableSleep', () => {
  it('resolves after the delay and leaves no timer', async () => {
    vi.useFakeTimers()
    let done = false
    void abortableSleep(500, new AbortController().signal).then(() => { done = true })
    await vi.advanceTimersByTimeAsync(499)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect([done, vi.getTimerCount()]).toEqual([true, 0])
  })

  it('resolves as soon as the signal aborts, clearing its timer', async () => {
    vi.useFakeTimers()
    const controller = new AbortController()
    const sleeping = abortableSleep(60_000, controller.signal)
    controller.abort()
    await sleeping
    expect(vi.getTimerCount()).toBe(0)
  })

  it('does not wait at all on a signal that is already aborted', async () => {
    vi.useFakeTimers()
    await abortableSleep(60_000, AbortSignal.abort())
    expect(vi.getTimerCount()).toBe(0)
  })
})
