import { MAX_TIMER_MS } from '@rein/kernel'
import { describe, expect, it, vi } from 'vitest'
import { backoffDelay, isRetryable, parseRetryAfter, sleep, transientStatus } from '../src/retry.js'

const now = Date.parse('2024-11-30T12:00:00Z')

describe('parseRetryAfter', () => {
  it('reads seconds, an HTTP date, and retry-after-ms (which wins)', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }), now)).toBe(2000)
    expect(parseRetryAfter(new Headers({ 'retry-after': '0.5' }), now)).toBe(500)
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Sat, 30 Nov 2024 12:00:07 GMT' }), now)).toBe(7000)
    expect(parseRetryAfter(new Headers({ 'retry-after': '9', 'retry-after-ms': '120' }), now)).toBe(120)
  })

  it('treats a past date as now, and no header or nonsense as no advice', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Sat, 30 Nov 2024 11:00:00 GMT' }), now)).toBe(0)
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined()
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined()
  })

  it('reads the obsolete HTTP date forms too, asctime\'s as GMT', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Saturday, 30-Nov-24 12:00:07 GMT' }), now)).toBe(7000)
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Sat Nov 30 12:00:07 2024' }), now)).toBe(7000)
  })

  it('takes what is neither seconds nor an HTTP date as no advice, though Date.parse would read it', () => {
    for (const value of ['-5', 'foo 2', '2 foo', '1e3', '', '2024-11-30', 'Sat, 30 Nov 2024 12:00:07']) {
      expect(parseRetryAfter(new Headers({ 'retry-after': value }), now)).toBeUndefined()
    }
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '-5', 'retry-after': '2' }), now)).toBe(2000)
  })

  it('keeps a number too large to hold finite', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '9'.repeat(400) }), now)).toBe(Number.MAX_SAFE_INTEGER)
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '9'.repeat(400) }), now)).toBe(Number.MAX_SAFE_INTEGER)
  })
})

describe('backoffDelay', () => {
  it('doubles per retry within [50%, 100%] of the ceiling, capped at the maximum', () => {
    expect([0, 1, 2, 3].map((r) => backoffDelay(r, 100, 1000, () => 1))).toEqual([100, 200, 400, 800])
    expect(backoffDelay(3, 100, 1000, () => 0)).toBe(400)
    expect(backoffDelay(10, 100, 1000, () => 1)).toBe(1000)
  })
})

describe('transientStatus', () => {
  it('retries 429 and 5xx only', () => {
    expect([400, 401, 404, 408, 429, 500, 502, 503].filter(transientStatus)).toEqual([429, 500, 502, 503])
  })
})

describe('isRetryable', () => {
  const anthropic = { retryableStatus: (s: number) => s === 408 || s === 409 || transientStatus(s), honourShouldRetry: true }
  const told = (value: string) => new Headers({ 'x-should-retry': value })

  it('asks the provider\'s status rule when the server says nothing', () => {
    expect([400, 408, 409, 429, 529].filter((s) => isRetryable(s, new Headers(), anthropic))).toEqual([408, 409, 429, 529])
    expect([408, 409, 429, 529].filter((s) => isRetryable(s, new Headers(), { retryableStatus: transientStatus }))).toEqual([429, 529])
  })

  it('follows x-should-retry over the status where the provider honours it, and ignores it elsewhere', () => {
    expect(isRetryable(500, told('false'), anthropic)).toBe(false)
    expect(isRetryable(400, told(' TRUE '), anthropic)).toBe(true)
    expect(isRetryable(500, told('maybe'), anthropic)).toBe(true)
    expect(isRetryable(500, told('false'), { retryableStatus: transientStatus })).toBe(true)
    expect(isRetryable(400, told('true'), { retryableStatus: transientStatus })).toBe(false)
  })
})

describe('sleep', () => {
  it('resolves after the delay', async () => {
    vi.useFakeTimers()
    try {
      let done = false
      const p = sleep(1000).then(() => { done = true })
      await vi.advanceTimersByTimeAsync(999)
      expect(done).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      await p
      expect(done).toBe(true)
    } finally { vi.useRealTimers() }
  })

  it('waits the whole of a wait longer than one timer can hold', async () => {
    vi.useFakeTimers()
    try {
      let done = false
      const p = sleep(MAX_TIMER_MS + 10).then(() => { done = true })
      await vi.advanceTimersByTimeAsync(MAX_TIMER_MS)
      expect(done).toBe(false)
      await vi.advanceTimersByTimeAsync(10)
      await p
      expect(done).toBe(true)
    } finally { vi.useRealTimers() }
  })

  it('rejects with the reason as soon as the signal aborts, or at once if it already has', async () => {
    const controller = new AbortController()
    const p = sleep(60_000, controller.signal)
    controller.abort(new Error('stop'))
    await expect(p).rejects.toThrow('stop')
    await expect(sleep(60_000, AbortSignal.abort(new Error('already')))).rejects.toThrow('already')
  })
})
