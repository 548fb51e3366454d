import { afterEach, describe, expect, it, vi } from 'vitest'
import type { RunProgress } from '../src/index.js'
import { progressSender } from '../src/progress-sender.js'

const started: RunProgress = { kind: 'started', at: 0, worker: 'w', attempt: 1, resumed: false, repaired: { outcomeUnknown: 0, notStarted: 0 } }
const call = (kind: 'call-start' | 'call-end', id: string): RunProgress => kind === 'call-start'
  ? { kind, at: 0, turn: 1, index: 0, id, name: 'ledger' }
  : { kind, at: 0, turn: 1, index: 0, id, name: 'ledger', ok: true, durationMs: 50 }
const turnEnd: RunProgress = { kind: 'turn-end', at: 0, turn: 1, calls: 1, outcome: 'committed' }

/** A Redis that records each send and answers only when told to. */
function recorder() {
  const sends: string[][] = []
  const answers: Array<() => void> = []
  const update = (events: RunProgress[]) => {
    sends.push(events.map((e) => 'id' in e ? `${e.kind} ${e.id}` : e.kind))
    return new Promise<void>((resolve) => answers.push(resolve))
  }
  return { sends, update, answer: () => answers.shift()?.() }
}

describe('progressSender: a run\'s progress in order, in few round trips', () => {
  afterEach(() => { vi.useRealTimers() })

  it('sends a call\'s start at once, with the reports held before it', async () => {
    const redis = recorder()
    const sender = progressSender(redis.update)
    sender.send(started)
    expect(redis.sends).toEqual([])
    sender.send(call('call-start', 'c1'))
    expect(redis.sends).toEqual([['started', 'call-start c1']])
    redis.answer()
    await sender.flush()
    sender.send(call('call-end', 'c1'))
    sender.send(turnEnd)
    sender.send(call('call-start', 'c2'))
    expect(redis.sends.at(-1)).toEqual(['call-end c1', 'turn-end', 'call-start c2'])
    redis.answer()
    await sender.flush()
    expect(redis.sends).toHaveLength(2)
  })

  it('sends what comes during a send in the next one, reports included', async () => {
    const sends: string[][] = []
    const sender = progressSender(async (events) => { sends.push(events.map((e) => 'id' in e ? `${e.kind} ${e.id}` : e.kind)) })
    sender.send(call('call-start', 'c1'))
    sender.send(call('call-start', 'c2'))
    sender.send(call('call-end', 'c1'))
    sender.send(turnEnd)
    await sender.flush()
    expect(sends).toEqual([['call-start c1'], ['call-start c2', 'call-end c1', 'turn-end']])
  })

  it('sends a report alone once it has waited holdMs', async () => {
    vi.useFakeTimers()
    const redis = recorder()
    const sender = progressSender(redis.update, 200)
    sender.send(call('call-end', 'c1'))
    sender.send(turnEnd)
    vi.advanceTimersByTime(199)
    expect(redis.sends).toEqual([])
    vi.advanceTimersByTime(1)
    expect(redis.sends).toEqual([['call-end c1', 'turn-end']])
    redis.answer()
    await sender.flush()
  })

  it('drops a send that fails and goes on with the next', async () => {
    const sends: string[][] = []
    const sender = progressSender(async (events) => {
      sends.push(events.map((e) => e.kind))
      if (sends.length === 1) throw new Error('redis away')
    })
    sender.send(call('call-start', 'c1'))
    await sender.flush()
    sender.send(call('call-start', 'c2'))
    await sender.flush()
    expect(sends).toEqual([['call-start'], ['call-start']])
  })
})
