import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DeadlineGroups } from '../src/groups.js'
import type { Watch } from '../src/watch.js'

afterEach(() => { vi.useRealTimers() })

/** Lets the microtasks queued so far (a group's close) run. */
const microtasks = async () => { for (let i = 0; i < 3; i++) await null }

describe('DeadlineGroups', () => {
  it('opens a closed group again for a call of its millisecond: same signal, same deadline moment', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const groups = new DeadlineGroups(0)
    const caller = new AbortController().signal
    const first = groups.join(caller, 100)
    first.leave()
    await microtasks()
    expect(vi.getTimerCount()).toBe(0) // closed: nothing left behind
    const again = groups.join(caller, 100)
    expect([again.signal === first.signal, vi.getTimerCount()]).toEqual([true, 1])
    vi.advanceTimersByTime(99)
    expect(again.signal.aborted).toBe(false)
    vi.advanceTimersByTime(1)
    expect([again.cause, again.signal.aborted]).toEqual(['deadline', true])
    again.leave()
    await microtasks()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('closes as its last member leaves once its millisecond is over, else in the next microtask', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const groups = new DeadlineGroups(0)
    const caller = new AbortController().signal
    const early = groups.join(caller, 100)
    early.leave()
    expect(vi.getTimerCount()).toBe(1) // a call of this millisecond may still join
    await microtasks()
    expect(vi.getTimerCount()).toBe(0)
    const late = groups.join(caller, 100)
    vi.advanceTimersByTime(1)
    late.leave()
    expect(vi.getTimerCount()).toBe(0) // none can: closed at once
    expect(groups.join(caller, 100).signal === late.signal).toBe(false)
  })

  it('opens no closed group of another millisecond, deadline or caller, nor one whose caller aborted meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const groups = new DeadlineGroups(0)
    const controller = new AbortController()
    const caller = controller.signal
    const closed = async () => {
      const watch = groups.join(caller, 100)
      watch.leave()
      await microtasks()
      return watch.signal
    }
    const signalOf = async (signal: AbortSignal, ms: number) => {
      const watch = groups.join(signal, ms)
      watch.leave()
      await microtasks()
      return watch.signal
    }
    const signal = await closed()
    const other = new AbortController().signal
    expect([await signalOf(caller, 200) === signal, await signalOf(other, 100) === signal]).toEqual([false, false])
    const before = await closed()
    vi.advanceTimersByTime(1)
    expect(await signalOf(caller, 100) === before).toBe(false)
    const last = await closed()
    controller.abort(new Error('stop'))
    const late = groups.join(caller, 100)
    expect([late.signal === last, late.cause, last.aborted]).toEqual([false, 'caller', false])
  })

  it('gives every call its exact deadline and leaves no timer behind, whatever the order of starts and ends', async () => {
    // Steps: 0 = let 1 ms pass, 1 = a call starts, 2 = the oldest running call ends, 3 = the newest ends, 4 = microtasks run.
    await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 60 }), fc.integer({ min: 1, max: 4 }), async (steps, ms) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
      const groups = new DeadlineGroups(0)
      const caller = new AbortController().signal
      const running: { watch: Watch, start: number }[] = []
      const check = () => {
        for (const { watch, start } of running) expect(watch.signal.aborted).toBe(Date.now() >= start + ms)
      }
      for (const step of steps) {
        if (step === 0) vi.advanceTimersByTime(1)
        else if (step === 1) running.push({ watch: groups.join(caller, ms), start: Date.now() })
        else if (step === 4) await microtasks()
        else running.splice(step === 2 ? 0 : running.length - 1, 1)[0]?.watch.leave()
        check()
      }
      for (const { watch } of running.splice(0)) watch.leave()
      await microtasks()
      expect(vi.getTimerCount()).toBe(0)
      vi.useRealTimers()
    }), { numRuns: 300 })
  })
})
