/**
 * The six plugins stacked in the recommended order on a real kernel: what retry, cache,
 * timeout and permissions do together, and what the audit file says about it.
 */
import { Messages, TOOL_DENIED, TOOL_FAILED, TOOL_TIMEOUT, UNKNOWN_TOOL } from '@rein/kernel'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { codeOf, harness, settle, useFakeClock } from './helpers.js'

afterEach(() => { vi.useRealTimers() })

describe('retry, cache and timeout together', () => {
  it('retries a tool that times out twice, caches its success, and serves the next identical call from the cache', async () => {
    const h = await harness({ hangFirst: 2 })
    useFakeClock()
    const start = Date.now()
    const first = await settle(h.call('fetch_page', { url: 'a' }))
    expect(first).toMatchObject({ isError: false, value: 'page a', meta: { attempts: 3 } })
    // two deadlines of 100 ms, full-jitter sleeps of 0.5 * 200 and 0.5 * 400: each attempt had its own deadline
    expect(Date.now() - start).toBe(100 + 100 + 100 + 200)
    // no timer is run for the second call: a hit never reaches retry, the timeout or the body
    const second = await h.call('fetch_page', { url: 'a' })
    expect(second).toMatchObject({ isError: false, value: 'page a', meta: { cacheHit: true } })
    expect(second.meta?.attempts).toBeUndefined()
    expect([h.runs.fetch_page, vi.getTimerCount()]).toEqual([3, 0])
  })

  it('keys the cache by arguments: another url runs the body again', async () => {
    const h = await harness({ hangFirst: 0 })
    await h.call('fetch_page', { url: 'a' })
    const other = await h.call('fetch_page', { url: 'b' })
    expect([other.isError || other.value, other.meta]).toEqual(['page b', { attempts: 1 }])
    expect(h.runs.fetch_page).toBe(2)
  })

  it('never caches a failure that is not retried: the next identical call runs the body again', async () => {
    const h = await harness()
    const first = await h.call('broken')
    const second = await h.call('broken')
    expect([codeOf(first), first.meta, codeOf(second), second.meta]).toEqual([TOOL_FAILED, { attempts: 1 }, TOOL_FAILED, { attempts: 1 }])
    expect(h.runs.broken).toBe(2)
  })

  it('never caches a timeout, and never retries a body it gave up on: a tool that ignores its signal runs once per call', async () => {
    const h = await harness()
    useFakeClock()
    const first = await settle(h.call('hang'))
    // The abandoned body may still be running: a retry would run a second copy beside it.
    expect(first.isError && [first.error.info, first.meta]).toEqual([{ code: TOOL_TIMEOUT, name: 'ToolTimeoutAbandoned' }, { attempts: 1 }])
    expect(first.content[0]).toEqual({ type: 'text', text: `Error: ${Messages.timedOut(100)}` })
    const second = await settle(h.call('hang'))
    expect([codeOf(second), second.meta]).toEqual([TOOL_TIMEOUT, { attempts: 1 }])
    expect([h.runs.hang, vi.getTimerCount()]).toEqual([2, 0])
  })
})

describe('permissions in front of everything', () => {
  it.each([
    ['a deny rule', 'delete_file', 'Error: deleting is not allowed here'],
    ['an ask answered deny', 'write_file', 'Error: "write_file" was denied at approval (writes need a person)'],
  ])('a call refused by %s never reaches cache, retry or the body', async (_how, tool, text) => {
    const h = await harness()
    for (let i = 0; i < 2; i++) {
      const result = await h.call(tool, { path: 'a.txt' })
      expect([codeOf(result), result.content[0]]).toEqual([TOOL_DENIED, { type: 'text', text }])
      // retry records attempts and cache records hits on every call they see: neither saw this one
      // (the approval service notes the answer it gave, for the audit)
      const { approval, ...others } = result.meta ?? {}
      expect(others).toEqual({})
      expect(approval === undefined || (approval as { answer?: unknown }).answer === 'deny').toBe(true)
    }
    expect(h.runs[tool]).toBeUndefined()
  })
})

describe('the audit file', () => {
  it('holds one line per call, in call order, with the code, decision, attempts and cache hit of each', async () => {
    const h = await harness({ hangFirst: 2 })
    useFakeClock()
    await settle(h.call('fetch_page', { url: 'a' }))
    await h.call('fetch_page', { url: 'a' })
    await h.call('delete_file', { path: 'a.txt' })
    await h.call('write_file', { path: 'a.txt' })
    await h.call('broken')
    await settle(h.call('hang'))
    await h.call('no_such_tool')
    const lines = await h.auditLines()
    expect(lines.map((l) => [l.id, l.index, l.name, l.decision, l.code ?? 'OK', l.attempts, l.cacheHit])).toEqual([
      ['call_1', 1, 'fetch_page', 'allow', 'OK', 3, undefined],
      ['call_2', 2, 'fetch_page', 'allow', 'OK', undefined, true],
      ['call_3', 3, 'delete_file', 'deny', TOOL_DENIED, undefined, undefined],
      ['call_4', 4, 'write_file', 'ask', TOOL_DENIED, undefined, undefined],
      ['call_5', 5, 'broken', 'allow', TOOL_FAILED, 1, undefined],
      ['call_6', 6, 'hang', 'allow', TOOL_TIMEOUT, 1, undefined],
      ['call_7', 7, 'no_such_tool', null, UNKNOWN_TOOL, undefined, undefined],
    ])
    // durations come from exec.startedAt on the same (fake) clock: the retried call took 500 ms
    expect([lines[0].durationMs, lines[1].durationMs]).toEqual([500, 0])
    expect(lines[0].arguments).toEqual({ url: 'a' })
  })
})
