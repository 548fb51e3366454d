/**
 * What a worker does with a job, given what the session holds. A job may be started more than
 * once (its worker died, or lost its lock): every attempt after the first continues the
 * session as it stands and never adds the task again, so the transcript holds it once, and an
 * attempt after the run ended reports the stored outcome and runs nothing.
 * Guarantee: the decision depends only on the stored session and the job's id and kind (task
 * or continuation), never on progress written in the job's data, so every worker makes the
 * same one, whether its copy of the job is current or not. What the session says of a job is
 * its markers (`marker.ts`): written before the job's first entry and when its run ended. The
 * agent's own resume repair then settles calls left without a result (reconciled, else
 * TOOL_OUTCOME_UNKNOWN, when their `tool/call` was logged; else TOOL_NOT_STARTED); a call with
 * a stored result is never run again.
 */
import { unanswered, type SessionEntry } from '@rein/agent'
import type { RunJobData, RunResult } from './job.js'
import { marksOf } from './marker.js'

/** What to do with one attempt of a job. */
export type RunPlan =
  /** Nothing of this job but perhaps its start marker is in the session: run with the task. */
  | { kind: 'fresh' }
  /** An earlier attempt wrote the task (or this is a continuation): run on without new input. */
  | { kind: 'resume', repairs: Repairs }
  /** An earlier attempt got the model's final answer: report it, ask nothing. */
  | { kind: 'finished', text: string }
  /** An earlier attempt's run ended and stored its outcome: report it, run nothing. */
  | { kind: 'ended', result: RunResult }
  /** Nothing to run: a continuation of an empty session, or a job the session has moved on from. */
  | { kind: 'nothing', reason: string }

/** Calls left without a result, by how the agent's repair will settle them. */
export interface Repairs {
  outcomeUnknown: number
  notStarted: number
}

/**
 * Plans one attempt of job `jobId` (data `data`) on a session holding `entries`, read with the
 * session's writer lock held. Whether the job has written anything is read from its start
 * marker; what comes after the marker is the job's own.
 */
export function planRun(entries: readonly SessionEntry[], data: RunJobData, jobId: string): RunPlan {
  const marks = marksOf(entries, jobId)
  if (marks.outcome !== undefined) return { kind: 'ended', result: marks.outcome }
  if (marks.laterJob !== undefined) {
    return { kind: 'nothing', reason: `job ${marks.laterJob} ran on the session after this job ${jobId} started, which stored no outcome: this attempt runs nothing` }
  }
  if (data.continuation) return planContinuation(entries)
  if (marks.started === undefined) return { kind: 'fresh' }
  const own = entries.slice(marks.started + 1)
  // The agent writes the task as the first user message of its run; until then nothing of
  // this job is stored but perhaps the session's system message.
  if (!own.some((entry) => entry.type === 'message' && entry.message.role === 'user')) return { kind: 'fresh' }
  // A plugin's `state` entry says nothing about how far the run got.
  const last = own.findLast((entry) => entry.type !== 'state')
  if (last?.type === 'message' && last.message.role === 'assistant' && !(last.message.toolCalls?.length)) {
    return { kind: 'finished', text: textOf(last.message.content) }
  }
  return { kind: 'resume', repairs: repairsOf(entries) }
}

/**
 * A continuation runs on without input: the parked turn (or one a dead worker left) goes on.
 * A session whose last word is the model's final answer is finished: asking the model again
 * would add a turn nobody asked for (a continuation queued twice finds it so). It counts no
 * repairs: the calls of a parked turn that have no result are continued, not repaired, and
 * which of them the agent settles is its own decision.
 */
function planContinuation(entries: readonly SessionEntry[]): RunPlan {
  const last = entries.findLast((entry) => entry.type !== 'state')
  if (last === undefined) return { kind: 'nothing', reason: 'the session is empty: there is no run to continue (submit a task first)' }
  if (last.type === 'message' && last.message.role === 'assistant' && !(last.message.toolCalls?.length)) {
    return { kind: 'finished', text: textOf(last.message.content) }
  }
  return { kind: 'resume', repairs: { outcomeUnknown: 0, notStarted: 0 } }
}

/** How many calls the agent's resume repair will settle, by kind. */
export function repairsOf(entries: readonly SessionEntry[]): Repairs {
  const missing = unanswered(entries)
  const outcomeUnknown = missing.filter((m) => m.started).length
  return { outcomeUnknown, notStarted: missing.length - outcomeUnknown }
}

/** The text of a message's content: a string as is, text blocks joined. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((block) => (block && typeof block === 'object' && typeof block.text === 'string' ? block.text : '')).join('')
}
