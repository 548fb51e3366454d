/** The summary block: the side-by-side factor appears only when calls ran side by side and it paid. */
import { describe, expect, it } from 'vitest'
import { summaryLines } from '../src/progress/lines.js'
import type { Summary } from '../src/progress/stats.js'
import { createStyle } from '../src/progress/style.js'

const base: Summary = { calls: 3, outcomes: [['ok', 3]], retried: 0, cacheHits: 0, spilled: 0, spilledBytes: 0, wallMs: 100, serialMs: 240, largestGroup: 3 }
const time = (summary: Summary) => summaryLines(summary, createStyle(false)).find((line) => line.startsWith('  time'))

describe('summaryLines', () => {
  it('gives the factor when calls ran side by side', () => {
    expect(time(base)).toBe('  time         100ms wall in tool batches; 240ms if run one by one (2.4x from running calls side by side)')
  })

  it('gives no factor for calls that all ran one at a time, or when it is not a gain', () => {
    expect(time({ ...base, calls: 1, largestGroup: 1, wallMs: 10, serialMs: 7 })).toBe('  time         10ms wall in tool batches; 7ms if run one by one')
    expect(time({ ...base, wallMs: 100, serialMs: 90 })).not.toContain('side by side')
  })
})
