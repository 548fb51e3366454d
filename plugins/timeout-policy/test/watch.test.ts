import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CallWatch, type Cause, type Follower } from '../src/watch.js'

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

  it('starts no timer on arm() once left', () => {
    vi.useFakeTimers()
    const watch = new CallWatch(new AbortController().signal, 100, 50)
    watch.leave()
    watch.arm()
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(100)
    expect(watch.signal.aborted).toBe(false)
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

  it('tells exactly the followers still following when it gives up, once each, in the order they followed', async () => {
    // Steps: a non-negative n follows a new follower n; a negative one unfollows follower -n - 1 (again, or never followed: nothing).
    await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: -8, max: 7 }), { maxLength: 40 }), async (steps) => {
      vi.useFakeTimers()
      const watch = new CallWatch(new AbortController().signal, 100, 0)
      const told: Array<[number, Cause]> = []
      const followers = new Map<number, Follower>()
      const expected: number[] = []
      steps.forEach((step, at) => {
        if (step >= 0) {
          const follower: Follower = { gaveUp: (cause) => { told.push([at, cause]) } }
          followers.set(at, follower)
          watch.follow(follower)
          expected.push(at)
        } else {
          const target = [...followers.keys()][-step - 1]
          if (target === undefined) return
          watch.unfollow(followers.get(target)!)
          const index = expected.indexOf(target)
          if (index >= 0) expected.splice(index, 1)
        }
      })
      vi.advanceTimersByTime(100)
      expect(told).toEqual(expected.map((at) => [at, 'deadline']))
      for (const follower of followers.values()) watch.unfollow(follower) // after the fact: nothing
      const late: Cause[] = []
      watch.follow({ gaveUp: (cause) => { late.push(cause) } })
      expect(late).toEqual([]) // told in a microtask, as `whenAbandoned` is
      await null
      expect([told.length, late]).toEqual([expected.length, ['deadline']])
      watch.leave()
      vi.useRealTimers()
    }), { numRuns: 300 })
  })
})
