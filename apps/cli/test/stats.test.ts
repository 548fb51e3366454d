/** Run statistics: outcomes, plugin facts, and wall time against call time. */
import { failure, type ToolExecutionResult } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { RunStats } from '../src/progress/stats.js'

const ok = (meta?: ToolExecutionResult['meta']): ToolExecutionResult => ({ isError: false, value: 1, content: [{ type: 'text', text: '1' }], ...(meta ? { meta } : {}) })

describe('RunStats', () => {
  it('counts outcomes (ok first), retries, cache hits and spills', () => {
    const stats = new RunStats()
    const calls: [string, ToolExecutionResult][] = [
      ['a', ok({ attempts: 2 })],
      ['b', ok({ cacheHit: true })],
      ['c', ok({ spilled: { locator: 'x', bytes: 5000 } })],
      ['d', failure('TOOL_DENIED', 'no')],
      ['e', failure('TOOL_TIMEOUT', 'slow')],
      ['f', failure('TOOL_DENIED', 'no')],
    ]
    calls.forEach(([id, result], index) => {
      stats.started(1, index, id, 't', 0)
      stats.ended(1, index, result, 10, 10)
    })
    expect(stats.summary()).toMatchObject({
      calls: 6, outcomes: [['ok', 3], ['TOOL_DENIED', 2], ['TOOL_TIMEOUT', 1]], retried: 1, cacheHits: 1, spilled: 1, spilledBytes: 5000,
    })
  })

  it('sums each batch\'s wall time and compares it with the calls\' own durations', () => {
    const stats = new RunStats()
    stats.started(1, 0, 'a', 't', 100)
    stats.started(1, 1, 'b', 't', 100)
    stats.ended(1, 1, ok(), 50, 150)
    stats.ended(1, 0, ok(), 80, 180)
    stats.started(1, 2, 'w', 't', 180)
    stats.ended(1, 2, ok(), 20, 200)
    stats.started(2, 0, 'c', 't', 5000)
    stats.ended(2, 0, ok(), 30, 5030)
    expect(stats.timing(1)).toEqual({ groups: [['a', 'b'], ['w']], wallMs: 100, serialMs: 150 })
    expect(stats.summary()).toMatchObject({ wallMs: 130, serialMs: 180, largestGroup: 2 })
  })
})
