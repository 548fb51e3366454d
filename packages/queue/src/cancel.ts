/**
 * Cancelling the run of a session, wherever it is. A run still queued is taken out of the
 * queue and never starts; a running one is aborted by its worker (the cancel channel), and
 * ends `aborted` once its calls in flight have settled: the agent starts nothing more, and the
 * kernel settles a call whose body ignores the abort within its `abandonAfterMs` (1 s by
 * default). The session stays valid either way.
 */
import { Job, type Queue } from 'bullmq'
import type { Redis } from 'ioredis'
import { requestCancel } from './cancel-channel.js'
import type { RunJobData, RunResult } from './job.js'
import { sessionId, type QueueKeys } from './options.js'
import type { RunWatcher } from './watch.js'

/** What `cancel` did. */
export type CancelOutcome =
  /** The session has no run queued or running. */
  | { kind: 'not-found', session: string }
  /** The run was still queued: it is gone and will not start. */
  | { kind: 'removed', session: string, jobId: string }
  /** The run had started; its worker was told. `result`: how it ended, when it did within `waitMs`. */
  | { kind: 'signalled', session: string, jobId: string, result?: RunResult }

/** Where `cancelRun` works. */
export interface CancelEnv {
  queue: Queue<RunJobData, RunResult>
  redis: Redis
  keys: QueueKeys
  watcher(): Promise<RunWatcher>
}

/** The states of a job that has not started (or waits to be tried again): it reads the session only later. */
export const QUEUED = new Set(['waiting', 'delayed', 'prioritized', 'paused', 'waiting-children'])

/** Cancels the run of `session`, then waits up to `waitMs` for it to end. */
export async function cancelRun(env: CancelEnv, requested: string, waitMs = 5000): Promise<CancelOutcome> {
  const session = sessionId('cancel', requested)
  const jobId = await env.queue.getDeduplicationJobId(session)
  if (!jobId) return { kind: 'not-found', session }
  const watching = waitMs > 0 ? await env.watcher() : undefined
  const watch = watching?.wait(jobId)
  try {
    await requestCancel(env.redis, env.keys, jobId)
    const job = await Job.fromId<RunJobData, RunResult>(env.queue, jobId)
    if (job && QUEUED.has(await job.getState())) {
      try {
        await job.remove()
        return { kind: 'removed', session, jobId }
      } catch {
        // it started meanwhile: its worker reads the marker, or hears the channel
      }
    }
    if (!watch) return { kind: 'signalled', session, jobId }
    await watching!.check(jobId)
    const result = await Promise.race([watch.result, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), waitMs).unref())])
    return { kind: 'signalled', session, jobId, ...(result ? { result } : {}) }
  } finally {
    watch?.stop()
  }
}
