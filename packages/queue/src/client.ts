/**
 * A submitter's connections to one queue, shared by any number of submits and cancels at once:
 * the BullMQ queue (adds jobs), one reader of the queue's events (opened on the first wait) and
 * one plain connection for the cancel channel. Redis is checked when the client is made, so a
 * wrong URL fails at once; after that, an outage makes calls wait until Redis is back.
 */
import { Queue } from 'bullmq'
import { cancelRun, type CancelOutcome } from './cancel.js'
import type { RunJobData, RunResult } from './job.js'
import { MAX_TIMER_MS, PREFIX, count, keysOf, type QueueTarget } from './options.js'
import { bullConnection, checkRedis, openConnection } from './redis.js'
import { submitRun, type SubmitRequest, type Submitted } from './submit.js'
import { RECHECK_MS, RunWatcher } from './watch.js'

/** Where a client works, and how it waits. */
export interface ClientOptions extends QueueTarget {
  /**
   * How often a wait reads its job's state again (ms, default 5000), besides following the
   * queue's events: a wait whose end event was lost (trimmed from the stream while the waiter
   * was behind, or gone with a Redis that restarted empty) ends this much later, not never.
   */
  recheckMs?: number
}

/** Submits and cancels runs on one queue. */
export interface QueueClient {
  /** Adds a run; waits for it unless `wait: false`. Throws `SESSION_BUSY` while the session has a run. */
  submit(request: SubmitRequest): Promise<Submitted>
  /** Cancels the run of `session`, then waits up to `waitMs` (default 5000) for it to end. */
  cancel(session: string, options?: { waitMs?: number }): Promise<CancelOutcome>
  close(): Promise<void>
}

/** Checks Redis and connects to the queue of `target`. */
export async function createQueueClient(target: ClientOptions): Promise<QueueClient> {
  const keys = keysOf(target, 'queue client')
  const recheckMs = count('queue client', 'recheckMs', target.recheckMs, RECHECK_MS, 10, MAX_TIMER_MS)
  await checkRedis(target.redis, 'queue client')
  const queue = new Queue<RunJobData, RunResult>(keys.name, { connection: bullConnection(target.redis), prefix: PREFIX })
  queue.on('error', () => {}) // an outage: calls wait until Redis is back
  const redis = openConnection(target.redis)
  let watcher: Promise<RunWatcher> | undefined
  const watching = () => watcher ??= RunWatcher.open(queue, redis, target.redis, recheckMs)
  return {
    submit: (request) => submitRun(queue, watching, request),
    cancel: (session, options) => cancelRun({ queue, redis, keys, watcher: watching }, session, options?.waitMs),
    async close() {
      const opened = await watcher?.catch(() => undefined)
      await Promise.allSettled([opened?.close(), queue.close(), redis.quit()])
    },
  }
}

/** Submits one run with a client of its own. */
export async function submit(options: ClientOptions & SubmitRequest): Promise<Submitted> {
  const client = await createQueueClient(options)
  try {
    return await client.submit(options)
  } finally {
    await client.close()
  }
}

/** Cancels the run of one session with a client of its own. */
export async function cancel(options: ClientOptions & { session: string, waitMs?: number }): Promise<CancelOutcome> {
  const client = await createQueueClient(options)
  try {
    return await client.cancel(options.session, { waitMs: options.waitMs })
  } finally {
    await client.close()
  }
}
