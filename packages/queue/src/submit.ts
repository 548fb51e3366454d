/**
 * Submitting a run: one job `{ session, task }` on the queue, refused while the session has
 * another run queued or running (the session is the job's deduplication id), and, unless told
 * not to, a wait for its end with its progress passed on as it comes. The wait is registered
 * before the job is added, so nothing of the run is missed.
 */
import type { JobsOptions, Queue } from 'bullmq'
import { QueueCodes, QueueError } from './codes.js'
import { JOB_NAME, newJobId, type RunJobData, type RunResult } from './job.js'
import { sessionId } from './options.js'
import type { RunProgress } from './progress.js'
import type { RunWatcher } from './watch.js'

/** One run to submit. */
export interface SubmitRequest {
  /** The session to run in (created on first use); one run per session at a time. */
  session: string
  /** The user message the run adds to the session. */
  task: string
  /** Wait for the run to end (default true). */
  wait?: boolean
  /** Each progress event of the run, while waiting. */
  onProgress?: (event: RunProgress) => void
}

/** A submitted run: its job id, and how it ended when waited for. */
export interface Submitted {
  jobId: string
  session: string
  result?: RunResult
}

/**
 * How run jobs are kept. An attempt that cannot reach PostgreSQL is tried again after 0.5 s,
 * doubling, 10 tries in all (about 4 minutes); a session still held by another process spends
 * none of them (the job waits, delayed, while the holder is alive: `run-job.ts`). Finished jobs
 * are kept an hour (failed ones a day) for inspection.
 */
export const RUN_JOB_OPTIONS: JobsOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 500 },
  removeOnComplete: { age: 60 * 60, count: 10_000 },
  removeOnFail: { age: 24 * 60 * 60 },
}

/** Adds the run of `request` to `queue`, and waits for it unless `wait: false`. */
export async function submitRun(queue: Queue<RunJobData, RunResult>, watcher: () => Promise<RunWatcher>, request: SubmitRequest): Promise<Submitted> {
  const session = sessionId('submit', request.session)
  if (typeof request.task !== 'string') throw new QueueError(QueueCodes.OPTIONS_INVALID, 'submit: "task" must be a string')
  const jobId = newJobId()
  const watching = request.wait === false ? undefined : await watcher()
  const watch = watching?.wait(jobId, request.onProgress)
  let added
  try {
    added = await queue.add(JOB_NAME, { session, task: request.task }, { ...RUN_JOB_OPTIONS, jobId, deduplication: { id: session } })
  } catch (error) {
    watch?.stop()
    throw error
  }
  if (added.id !== jobId) {
    watch?.stop()
    throw new QueueError(QueueCodes.SESSION_BUSY,
      `submit: session ${JSON.stringify(session)} already has a run queued or running (job ${added.id}); one run per session at a time: ` +
      `wait for it to end, or cancel it (rein cancel --session ${JSON.stringify(session)})`)
  }
  if (!watch) return { jobId, session }
  await watching!.check(jobId)
  return { jobId, session, result: await watch.result }
}
