/**
 * The queue's own record of its jobs in the session log: `state` entries of the plugin
 * `@rein/queue`, key `run`. A worker appends `{ job }` before the job first writes anything
 * (so before its task), and `{ job, outcome }` once the run has ended; both with the session's
 * writer lock held, so two attempts of one job never both find it unmarked. The session, not
 * the job's data in Redis, is what says how far a job got: an attempt that lost its job lock
 * before it opened the session (and so holds stale job data), and a job whose data anyone
 * with access to Redis wrote, are judged by the same stored entries.
 */
import type { NewSessionEntry, SessionEntry } from '@rein/agent'
import type { RunResult } from './job.js'

/** The `plugin` of the queue's `state` entries. */
export const MARKER_PLUGIN = '@rein/queue'
/** Their `key`. */
export const MARKER_KEY = 'run'

type StateValue = Extract<NewSessionEntry, { type: 'state' }>['value']

/** What the session says of one job. */
export interface JobMarks {
  /** Where its start marker is in the entries given (an index), when it has one. */
  started?: number
  /** The outcome stored when its run ended. */
  outcome?: RunResult
  /** A job whose start marker comes after this job's: the session moved on past it. */
  laterJob?: string
}

/** The entry that says job `jobId` starts writing to the session. */
export function startMarker(jobId: string): NewSessionEntry {
  return { type: 'state', plugin: MARKER_PLUGIN, key: MARKER_KEY, value: { job: jobId } }
}

/** The entry that stores how job `jobId` ended (without the reporting worker and attempt count, which each report adds). */
export function outcomeMarker(jobId: string, result: RunResult): NewSessionEntry {
  const { worker: _worker, attempts: _attempts, ...outcome } = result
  return { type: 'state', plugin: MARKER_PLUGIN, key: MARKER_KEY, value: { job: jobId, outcome: outcome as unknown as StateValue } }
}

/** What `entries` say of job `jobId`. */
export function marksOf(entries: readonly SessionEntry[], jobId: string): JobMarks {
  const marks: JobMarks = {}
  entries.forEach((entry, index) => {
    const mark = markOf(entry)
    if (mark === undefined) return
    if (mark.job === jobId) {
      if (mark.outcome !== undefined) marks.outcome = mark.outcome
      else if (marks.started === undefined) marks.started = index
    } else if (marks.started !== undefined && mark.outcome === undefined) {
      marks.laterJob = mark.job
    }
  })
  return marks
}

function markOf(entry: SessionEntry): { job: string, outcome?: RunResult } | undefined {
  if (entry.type !== 'state' || entry.plugin !== MARKER_PLUGIN || entry.key !== MARKER_KEY) return undefined
  const value = entry.value as { job?: unknown, outcome?: unknown } | null
  if (typeof value !== 'object' || value === null || typeof value.job !== 'string') return undefined
  const outcome = value.outcome
  if (typeof outcome !== 'object' || outcome === null || typeof (outcome as RunResult).kind !== 'string') return { job: value.job }
  return { job: value.job, outcome: outcome as RunResult }
}
