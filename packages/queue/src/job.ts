/**
 * The shape of a run as a BullMQ job, shared by submitters and workers. A job is
 * `{ session, task }`, or `{ session, continuation: true }` for a run that goes on without new
 * input (a turn parked for approval, once it is answered). Nothing a worker learns is written
 * back into the job: how far a job got is read from the session itself (`marker.ts`), so job
 * data that is stale or that someone wrote by hand cannot make a worker repeat or skip the
 * task. One run per session at a time: the session is the job's
 * deduplication id, so BullMQ refuses a second job for it until the first is finished.
 */
import { randomUUID } from 'node:crypto'
import type { ParkedCall, RunOutcome } from '@rein/agent'
import { sessionIdProblem } from '@rein/session-postgres'

/** BullMQ's job name for a run. */
export const JOB_NAME = 'run'

/** What a job carries. */
export interface RunJobData {
  /** The session id: the PostgreSQL session the run reads and appends to. */
  session: string
  /** The user message this run adds to the session; absent for a continuation. */
  task?: string
  /** The run adds no message: it continues the session (`agent.run()`), e.g. a turn parked for approval. */
  continuation?: true
}

/** How a run ended, as its submitter sees it. */
export interface RunResult {
  kind: RunOutcome['kind']
  /** The final assistant text (empty when the run ended without one). */
  text: string
  /** For `error` (and an `aborted` run that never started): what went wrong, without secrets. */
  error?: string
  /** A stable code for `error` when there is one (`SESSION_WRITE_FAILED`, `POSTGRES_UNAVAILABLE`...). */
  code?: string
  /** The worker that finished it (`host:pid`), when a worker did. */
  worker?: string
  /** How many times a worker started the job (more than 1 after a worker died or the session was locked). */
  attempts?: number
  /** For `awaiting-approval`: the calls waiting for an answer (`answerApproval`, `rein approve`). */
  approvals?: ParkedCall[]
}

/** A fresh job id: unique per submission (BullMQ refuses ids with ":" and plain integers). */
export function newJobId(): string {
  return `run-${randomUUID()}`
}

/** Reads the job data a worker was given, or says what is wrong with it. */
export function jobDataProblem(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return 'the job has no data; a run job is { session, task } or { session, continuation: true }'
  // Other fields are ignored: an older worker's `inputAfter`, above all, is never trusted.
  const { session, task, continuation } = data as Record<string, unknown>
  const problem = sessionIdProblem(session)
  if (problem !== undefined) return `"session" ${problem}`
  if (continuation !== undefined && continuation !== true) return '"continuation" must be true when present'
  if (continuation === true && task !== undefined) return 'a continuation has no "task": it adds no message'
  if (continuation === undefined && typeof task !== 'string') return '"task" must be a string'
  return undefined
}
