import { describe, expect, it } from 'vitest'
import type { NewSessionEntry, SessionEntry } from '@rein/agent'
import { callMessage, textMessage, toolCall } from '@rein/testing'
import { planRun, type RunJobData, type RunResult } from '../src/index.js'
import { outcomeMarker, startMarker } from '../src/marker.js'

const numbered = (entries: NewSessionEntry[]): SessionEntry[] => entries.map((e, i) => ({ ...e, seq: i + 1 }) as SessionEntry)
const earlier: NewSessionEntry[] = [
  { type: 'message', message: { role: 'user', content: 'an earlier run' } },
  { type: 'message', turn: 1, message: textMessage('done before') },
]
const job = { session: 's', task: 'the task' }

describe('planRun: what an attempt of a job does with its session', () => {
  const started = startMarker('run-1')
  const theTask: NewSessionEntry = { type: 'message', message: { role: 'user', content: 'the task' } }

  it('a first attempt runs the task, whatever a session without its marker holds', () => {
    expect(planRun(numbered(earlier), job, 'run-1')).toEqual({ kind: 'fresh' })
    // Another job's marker and task are that job's.
    expect(planRun(numbered([startMarker('run-0'), ...earlier]), job, 'run-1')).toEqual({ kind: 'fresh' })
  })

  it('a later attempt whose predecessor wrote only the marker (or the system message too) runs the task', () => {
    expect(planRun(numbered([...earlier, started]), job, 'run-1')).toEqual({ kind: 'fresh' })
    const system: NewSessionEntry = { type: 'message', message: { role: 'system', content: 'be brief' } }
    expect(planRun(numbered([started, system]), job, 'run-1')).toEqual({ kind: 'fresh' })
  })

  it('a later attempt after the task was written runs on without it, counting the calls the repair will settle', () => {
    const entries = numbered([...earlier, started, theTask,
      { type: 'message', turn: 2, message: callMessage([toolCall('a', 'read'), toolCall('b', 'read'), toolCall('c', 'read')]) },
      { type: 'tool/call', turn: 2, index: 0, call: { id: 'a', name: 'read', arguments: {} } },
      { type: 'tool/call', turn: 2, index: 1, call: { id: 'b', name: 'read', arguments: {} } },
      { type: 'tool/result', turn: 2, index: 0, message: { role: 'tool', toolCallId: 'a', content: [{ type: 'text', text: 'ok' }], isError: false } },
    ])
    expect(planRun(entries, job, 'run-1')).toEqual({ kind: 'resume', repairs: { outcomeUnknown: 1, notStarted: 1 } })
  })

  it("a later attempt after the model's final answer reports it and asks nothing", () => {
    const entries = numbered([...earlier, started, theTask, { type: 'message', turn: 2, message: textMessage('the answer') }])
    expect(planRun(entries, job, 'run-1')).toEqual({ kind: 'finished', text: 'the answer' })
  })

  it("an earlier run's final answer is not this job's", () => {
    expect(planRun(numbered([...earlier, started, theTask]), job, 'run-1')).toEqual({ kind: 'resume', repairs: { outcomeUnknown: 0, notStarted: 0 } })
  })

  it('a later attempt after the run ended, however it ended, reports the stored outcome and runs nothing', () => {
    const stopped: RunResult = { kind: 'max-turns', text: '' }
    const entries = numbered([...earlier, started, theTask, { type: 'message', turn: 2, message: callMessage([toolCall('a', 'read')]) },
      outcomeMarker('run-1', { ...stopped, worker: 'w1', attempts: 1 })])
    expect(planRun(entries, job, 'run-1')).toEqual({ kind: 'ended', result: stopped })
    expect(planRun(entries, { session: 's', continuation: true }, 'run-1')).toEqual({ kind: 'ended', result: stopped })
  })

  it('an attempt of a job the session has moved on from runs nothing', () => {
    const entries = numbered([started, theTask, startMarker('run-2'), { type: 'message', message: { role: 'user', content: 'next' } }])
    expect(planRun(entries, job, 'run-1')).toMatchObject({ kind: 'nothing', reason: expect.stringContaining('job run-2 ran on the session after this job run-1') })
  })

  it('trusts no progress in the job data: a forged inputAfter changes nothing', () => {
    const forged = { ...job, inputAfter: 0 } as RunJobData
    expect(planRun(numbered(earlier), forged, 'run-1')).toEqual({ kind: 'fresh' })
    expect(planRun(numbered([...earlier, started, theTask]), { ...job, inputAfter: 999 } as RunJobData, 'run-1'))
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
    expect(planRun(parked, continuation, 'run-1')).toEqual({ kind: 'resume', repairs: { outcomeUnknown: 0, notStarted: 0 } })
  })

  it("reports a finished session's answer and asks nothing; an empty session has nothing to continue", () => {
    expect(planRun(numbered(earlier), continuation, 'run-1')).toEqual({ kind: 'finished', text: 'done before' })
    expect(planRun([], continuation, 'run-1')).toEqual({ kind: 'nothing', reason: 'the session is empty: there is no run to continue (submit a task first)' })
  })
})
