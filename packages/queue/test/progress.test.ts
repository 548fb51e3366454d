import { describe, expect, it } from 'vitest'
import { describeProgress } from '../src/index.js'

describe('describeProgress: one line per event for a person watching', () => {
  it('says where a run started, and what a resumed one found left over', () => {
    const started = { kind: 'started', at: 0, worker: 'w1:42', attempt: 1, resumed: false, repaired: { outcomeUnknown: 0, notStarted: 0 } } as const
    expect(describeProgress(started)).toBe('started on w1:42')
    expect(describeProgress({ ...started, attempt: 2, resumed: true, repaired: { outcomeUnknown: 1, notStarted: 2 } })).toBe(
      'resumed (attempt 2) on w1:42; calls left by the earlier attempt: 1 in flight (TOOL_OUTCOME_UNKNOWN, not rerun), 2 not started (TOOL_NOT_STARTED)')
    expect(describeProgress({ ...started, resumed: true, continuation: true })).toBe('continued (attempt 1) on w1:42')
  })

  it('shows calls as they start and end, with the code of a failure', () => {
    const call = { at: 0, turn: 1, index: 0, id: 'c1', name: 'read_file' }
    expect(describeProgress({ kind: 'call-start', ...call })).toBe('→ read_file (c1)')
    expect(describeProgress({ kind: 'call-end', ...call, ok: true, durationMs: 52 })).toBe('✓ read_file (c1) 52 ms')
    expect(describeProgress({ kind: 'call-end', ...call, ok: false, code: 'TIMEOUT', durationMs: 9 })).toBe('✗ read_file (c1) TIMEOUT 9 ms')
    expect(describeProgress({ kind: 'turn-end', at: 0, turn: 1, calls: 2, outcome: 'committed' })).toBe('turn 1: 2 calls committed')
  })

  it("prints the model's words that came with its calls, one model: line each", () => {
    expect(describeProgress({ kind: 'model', at: 0, turn: 1, text: 'Let me look.\nTwo files first.' })).toBe('model: Let me look.\nmodel: Two files first.')
  })
})
