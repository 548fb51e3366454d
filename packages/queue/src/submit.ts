/**
 * Submitting a run: one job `{ session, task }` on the queue, refused while the session has
 * another run queued or running (the session is the job's deduplication id), and, unless told
 * not to, a wait for its end with its progress passed on as it comes. The wait is registered
 * before the job is added, so nothing of the run is missed. A continuation (`continue: true`,
 * a job `{ session, continuation: true }`) is the way a parked turn goes on once answered: a
 * run of the session still queued will read the answers and is followed instead; one already
 * running may have read the session before them, so it is waited for and the continuation is
 * queued after it (on a finished session a continuation does nothing: `resume.ts`).
 */
import { Job, type JobsOptions, type Queue } from 'bullmq'
import { QUEUED } from './cancel.js'
import { QueueCodes, QueueError } from './codes.js'
import { JOB_NAME, newJobId, type RunJobData, type RunResult } from './job.js'
import { sessionId } from './options.js'
import type { RunProgress } from './progress.js'
import type { RunWatcher } from './watch.js'

/** One run to submit. */
export interface SubmitRequest {
  /** The session to run in (created on first use); one run per session at a time. */
  session: string
  /** The user message the run adds to the session (not with `continue`). */
  task?: string
  /**
   * Add no message: the session goes on from where it stands (`agent.run()`), as a turn parked
   * for approval does once its requests are answered (`answerApproval` of `@rein/agent`).
   */
  continue?: boolean
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

/** How many runs of the session a continuation waits out before it gives up (someone keeps submitting). */
const MAX_RUNS_AHEAD = 5

/** Adds the run of `request` to `queue`, and waits for it unless `wait: false`. */
export async function submitRun(queue: Queue<RunJobData, RunResult>, watcher: () => Promise<RunWatcher>, request: SubmitRequest): Promise<Submitted> {
  const session = sessionId('submit', request.session)
  const data = jobData(request, session)
  const watching = request.wait === false ? undefined : await watcher()
  for (let ahead = 0; ; ahead++) {
    const jobId = newJobId()
    const watch = watching?.wait(jobId, request.onProgress)
    let added
    try {
      added = await queue.add(JOB_NAME, data, { ...RUN_JOB_OPTIONS, jobId, deduplication: { id: session } })
    } catch (error) {
      watch?.stop()
      throw error
    }
    if (added.id === jobId) return follow(watching, jobId, session, watch)
    watch?.stop()
    const other = added.id!
    if (!data.continuation || ahead === MAX_RUNS_AHEAD) {
      throw new QueueError(QueueCodes.SESSION_BUSY,
        `submit: session ${JSON.stringify(session)} already has a run queued or running (job ${other}); one run per session at a time: ` +
        `wait for it to end, or cancel it (rein cancel --session ${JSON.stringify(session)})`)
    }
    const job = await Job.fromId<RunJobData, RunResult>(queue, other)
    if (job && QUEUED.has(await job.getState())) {
      // It has not read the session yet: it goes on with what is there now, answers included.
      return follow(watching, other, session, watching?.wait(other, request.onProgress))
    }
    // It is running, and may have read the session before the answers: the continuation goes after it.
    const reader = watching ?? await watcher()
    const ended = reader.wait(other)
    await reader.check(other)
    await ended.result
  }
}

function jobData(request: SubmitRequest, session: string): RunJobData {
  if (request.continue === true) {
    if (request.task !== undefined) throw new QueueError(QueueCodes.OPTIONS_INVALID, 'submit: "task" and "continue" exclude each other: a continuation adds no message')
    return { session, continuation: true }
  }
  if (typeof request.task !== 'string') throw new QueueError(QueueCodes.OPTIONS_INVALID, 'submit: "task" must be a string (or pass continue: true to go on without one)')
  return { session, task: request.task }
}

async function follow(watching: RunWatcher | undefined, jobId: string, session: string, watch: ReturnType<RunWatcher['wait']> | undefined): Promise<Submitted> {
  if (!watch) return { jobId, session }
  await watching!.check(jobId)
  return { jobId, session, result: await watch.result }
}
