import { afterEach, describe, expect, it, vi } from 'vitest'
import { CallWatch } from '../src/watch.js'

afterEach(() => { vi.useRealTimers() })

describe('CallWatch', () => {
  it('keeps the first cause: a caller abort after the deadline changes nothing', async () => {
    vi.useFakeTimers()
    const caller = new AbortController()
    const watch = new CallWatch(caller.signal, 100, 50)
    vi.advanceTimersByTime(100)
    caller.abort(new Error('late'))
    expect(watch.cause).toBe('deadline')
    expect((watch.signal.reason as DOMException).message).toBe('tool call timed out after 100ms')
    vi.advanceTimersByTime(50)
    expect(await watch.abandoned).toBe('deadline')
  })

  it('passes the caller\'s reason on when the caller aborts first', () => {
    const caller = new AbortController()
    const watch = new CallWatch(caller.signal, undefined, 50)
    const reason = new Error('user pressed ctrl-c')
    caller.abort(reason)
    expect(watch.cause).toBe('caller')
    expect(watch.signal.reason).toBe(reason)
    watch.leave()
  })

  it('starts aborted when the caller already is', () => {
    const watch = new CallWatch(AbortSignal.abort(), 100, 50)
    expect([watch.cause, watch.signal.aborted]).toEqual(['caller', true])
    watch.leave()
  })

  it('restarts the deadline on arm(), and arm() does nothing once aborted', () => {
    vi.useFakeTimers()
    const watch = new CallWatch(new AbortController().signal, 100, 50)
    vi.advanceTimersByTime(90)
    watch.arm()
    vi.advanceTimersByTime(90)
    expect(watch.signal.aborted).toBe(false)
    vi.advanceTimersByTime(10)
    expect(watch.cause).toBe('deadline')
    watch.arm()
    expect(vi.getTimerCount()).toBe(1)
    watch.leave()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('leaves nothing behind after dispose(): no timer, and a later caller abort is not seen', () => {
    vi.useFakeTimers()
    const caller = new AbortController()
    const watch = new CallWatch(caller.signal, 100, 50)
    watch.leave()
    expect(vi.getTimerCount()).toBe(0)
    caller.abort()
    expect(watch.signal.aborted).toBe(false)
  })
})
