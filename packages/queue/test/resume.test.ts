import { describe, expect, it } from 'vitest'
import type { NewSessionEntry, SessionEntry } from '@rein/agent'
import { callMessage, textMessage, toolCall } from '@rein/testing'
import { planRun } from '../src/index.js'

const numbered = (entries: NewSessionEntry[]): SessionEntry[] => entries.map((e, i) => ({ ...e, seq: i + 1 }) as SessionEntry)
const earlier: NewSessionEntry[] = [
  { type: 'message', message: { role: 'user', content: 'an earlier run' } },
  { type: 'message', turn: 1, message: textMessage('done before') },
]
const job = { session: 's', task: 'the task' }

describe('planRun: what an attempt of a job does with its session', () => {
  it('a first attempt runs the task, and records where the session stood', () => {
    expect(planRun(numbered(earlier), job)).toEqual({ kind: 'fresh', inputAfter: 2 })
  })

  it('a later attempt whose predecessor wrote nothing (or only the system message) runs the task', () => {
    expect(planRun(numbered(earlier), { ...job, inputAfter: 2 })).toEqual({ kind: 'fresh', inputAfter: 2 })
    const system: NewSessionEntry = { type: 'message', message: { role: 'system', content: 'be brief' } }
    expect(planRun(numbered([system]), { ...job, inputAfter: 0 })).toEqual({ kind: 'fresh', inputAfter: 0 })
  })

  it('a later attempt after the task was written runs on without it, counting the calls the repair will settle', () => {
    const entries = numbered([...earlier,
      { type: 'message', message: { role: 'user', content: 'the task' } },
      { type: 'message', turn: 2, message: callMessage([toolCall('a', 'read'), toolCall('b', 'read'), toolCall('c', 'read')]) },
      { type: 'tool/call', turn: 2, index: 0, call: { id: 'a', name: 'read', arguments: {} } },
      { type: 'tool/call', turn: 2, index: 1, call: { id: 'b', name: 'read', arguments: {} } },
      { type: 'tool/result', turn: 2, index: 0, message: { role: 'tool', toolCallId: 'a', content: [{ type: 'text', text: 'ok' }], isError: false } },
    ])
    expect(planRun(entries, { ...job, inputAfter: 2 })).toEqual({ kind: 'resume', repairs: { outcomeUnknown: 1, notStarted: 1 } })
  })

  it("a later attempt after the model's final answer reports it and asks nothing", () => {
    const entries = numbered([...earlier,
      { type: 'message', message: { role: 'user', content: 'the task' } },
      { type: 'message', turn: 2, message: textMessage('the answer') },
    ])
    expect(planRun(entries, { ...job, inputAfter: 2 })).toEqual({ kind: 'finished', text: 'the answer' })
  })

  it("an earlier run's final answer is not this job's", () => {
    expect(planRun(numbered([...earlier, { type: 'message', message: { role: 'user', content: 'the task' } }]), { ...job, inputAfter: 2 }))
      .toEqual({ kind: 'resume', repairs: { outcomeUnknown: 0, notStarted: 0 } })
  })
})

describe('planRun: a continuation (no task)', () => {
  const continuation = { session: 's', continuation: true } as const

  it('goes on with a session that awaits approval (or that a dead worker left mid-turn), adding nothing', () => {
    const parked = numbered([...earlier,
      { type: 'message', message: { role: 'user', content: 'the task' } },
      { type: 'message', turn: 2, message: callMessage([toolCall('a', 'push')]) },
    ])
    // Its call has no result, but it is the parked one: the agent continues it, nothing is repaired.
    expect(planRun(parked, continuation)).toEqual({ kind: 'resume', repairs: { outcomeUnknown: 0, notStarted: 0 } })
  })

  it("reports a finished session's answer and asks nothing; an empty session has nothing to continue", () => {
    expect(planRun(numbered(earlier), continuation)).toEqual({ kind: 'finished', text: 'done before' })
    expect(planRun([], continuation)).toEqual({ kind: 'nothing', reason: 'the session is empty: there is no run to continue (submit a task first)' })
  })
})
