import { ABORTED, ABORTED_BEFORE_DISPATCH, TOOL_TIMEOUT, failure } from '@rein/kernel'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Writes } from '../src/writes.js'

afterEach(() => { vi.useRealTimers() })

/** A write whose end the test decides. */
function gate() {
  let open = () => {}
  const closed = new Promise<void>((resolve) => { open = resolve })
  return { closed, open }
}

describe('Writes', () => {
  it('calls onStart before the body and reports quiet only when no write touched the span', async () => {
    const log: string[] = []
    const writes = new Writes(() => log.push('start'))
    const before = writes.mark()
    expect(writes.quietSince(before)).toBe(true)
    await writes.around(async () => { log.push('body') })
    expect([log, writes.quietSince(before), writes.quietSince(writes.mark())]).toEqual([['start', 'body'], false, true])
  })

  it('is not quiet while a write runs, nor after a write that was running at the mark ends', async () => {
    const writes = new Writes(() => {})
    const g = gate()
    const running = writes.around(() => g.closed)
    const during = writes.mark()
    expect(writes.quietSince(during)).toBe(false)
    g.open()
    await running
    expect(writes.quietSince(during)).toBe(false)
  })

  it('hands back the very promise of its body, counted as over before the caller reacts to it', async () => {
    const writes = new Writes(() => {})
    const g = gate()
    const body = g.closed.then(() => 'written')
    const before = writes.mark()
    const running = writes.around(() => body)
    expect(running).toBe(body)
    const seen: boolean[] = []
    const reacted = running.then(() => { seen.push(writes.quietSince(writes.mark())) })
    g.open()
    await reacted
    expect([seen, writes.quietSince(before)]).toEqual([[true], false])
  })

  it('counts a write whose body rejects, and passes the rejection on', async () => {
    const writes = new Writes(() => {})
    const before = writes.mark()
    await expect(writes.around(() => Promise.reject(new Error('disk full')))).rejects.toThrow('disk full')
    expect([writes.quietSince(before), writes.quietSince(writes.mark())]).toEqual([false, true])
  })

  it('keeps a write whose result is abandoned running for holdMs, invalidating again as it returns', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let starts = 0
    const writes = new Writes(() => { starts++ }, 60_000)
    const before = writes.mark()
    await writes.around(async () => failure(TOOL_TIMEOUT, 'timed out', 'ToolTimeoutAbandoned'))
    const after = writes.mark()
    expect([starts, writes.quietSince(after), vi.getTimerCount()]).toEqual([2, false, 1])
    await vi.advanceTimersByTimeAsync(60_000)
    expect([writes.quietSince(after), writes.quietSince(before), writes.quietSince(writes.mark()), vi.getTimerCount()])
      .toEqual([false, false, true, 0])
  })

  it('clears its hold timers on dispose', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const writes = new Writes(() => {}, 60_000)
    await writes.around(async () => failure(ABORTED, 'aborted', 'Abandoned'))
    expect(vi.getTimerCount()).toBe(1)
    writes.dispose()
    expect(vi.getTimerCount()).toBe(0)
  })
})
