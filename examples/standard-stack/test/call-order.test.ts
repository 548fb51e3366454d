/**
 * The exact order in which the six plugins' handlers run for one call, recorded by tracing
 * every handler each plugin registers (`trace.ts`) and asserted as a whole list.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { harness, settle, useFakeClock } from './helpers.js'
import { traced } from './trace.js'

afterEach(() => { vi.useRealTimers() })

async function tracedHarness(hangFirst = 0) {
  const log: string[] = []
  const h = await harness({ hangFirst, trace: log, wrap: (entry) => traced(entry, log) })
  return { ...h, log }
}

/** Everything before the execute stage for an allowed call. */
const DECIDE = [
  'permission-guard:pre-execute:enter',
  'permission-guard:pre-execute:exit',
  'permission-guard:guard',
]

/** Everything after the execute stage. */
const FINISH = ['spill:post-execute:enter', 'spill:post-execute:exit', 'audit:result', 'audit:hand-off']

describe('the handlers of one call, in order', () => {
  it('runs pre-execute, the guard, the execute onion around the body, post-execute, then the observer and the hold', async () => {
    const h = await tracedHarness()
    expect(h.ctx.tools.chain('tools/execute')).toEqual(['cache', 'retry', 'timeout-policy']) // tracing renames nothing
    await h.call('echo', { text: 'hi' })
    expect(h.log).toEqual([
      ...DECIDE,
      'cache:execute:enter',
      'retry:execute:enter',
      'timeout-policy:execute:enter',
      'body',
      'timeout-policy:execute:exit',
      'retry:execute:exit',
      'cache:execute:exit',
      ...FINISH,
    ])
  })

  it('stops at the cache on a hit: retry, timeout and the body do not run', async () => {
    const h = await tracedHarness()
    await h.call('echo', { text: 'hi' })
    h.log.length = 0
    await h.call('echo', { text: 'hi' })
    expect(h.log).toEqual([...DECIDE, 'cache:execute:enter', 'cache:execute:exit', ...FINISH])
  })

  it('runs a fresh deadline inside retry for every attempt', async () => {
    const h = await tracedHarness(1)
    useFakeClock()
    await settle(h.call('fetch_page', { url: 'a' }))
    const attempt = ['timeout-policy:execute:enter', 'body', 'timeout-policy:execute:exit']
    expect(h.log).toEqual([
      ...DECIDE,
      'cache:execute:enter', 'retry:execute:enter', ...attempt, ...attempt, 'retry:execute:exit', 'cache:execute:exit',
      ...FINISH,
    ])
  })

  it('goes from a denying pre-execute straight to post-execute: no guard, no execute stage', async () => {
    const h = await tracedHarness()
    await h.call('delete_file', { path: 'a.txt' })
    expect(h.log).toEqual([
      'permission-guard:pre-execute:enter',
      'permission-guard:pre-execute:exit',
      ...FINISH,
    ])
  })
})
