/**
 * Watching runs from a submitter: one BullMQ `QueueEvents` reader per client, reading the
 * queue's event stream from where it stood when the reader was opened, and routing each job's
 * progress and end to whoever waits for that job. A wait registered before its job is added
 * misses nothing of it: the stream keeps every event in order, and the reader resumes from its
 * last event after Redis comes back. The job's stored state is read once as well, for a run
 * that ended before the wait began.
 */
import { Job, QueueEvents, type Queue } from 'bullmq'
import type { Redis } from 'ioredis'
import type { RunJobData, RunResult } from './job.js'
import { PREFIX } from './options.js'
import type { RunProgress } from './progress.js'
import { bullConnection } from './redis.js'

/** One wait for one job. */
export interface Watch {
  /** How the run ended. */
  result: Promise<RunResult>
  /** Stops waiting (`result` then never settles). */
  stop(): void
}

interface Waiter {
  onProgress?: (event: RunProgress) => void
  settle(result: RunResult): void
}

/** Run ends the submitter reports that are not a worker's result. */
export const NOT_STARTED: RunResult = { kind: 'aborted', text: '', error: 'cancelled before it started' }

export class RunWatcher {
  // Every wait, by job: a submitter and a canceller may wait for the same job.
  private readonly waiters = new Map<string, Set<Waiter>>()

  private constructor(private readonly queue: Queue<RunJobData, RunResult>, private readonly events: QueueEvents) {
    // A worker sends progress in batches (an array of events); each is passed on in order.
    events.on('progress', ({ jobId, data }) => {
      const batch = (Array.isArray(data) ? data : [data]) as RunProgress[]
      this.each(jobId, (w) => { for (const event of batch) w.onProgress?.(event) })
    })
    events.on('completed', ({ jobId, returnvalue }) => this.each(jobId, (w) => w.settle(returnvalue as unknown as RunResult)))
    events.on('failed', ({ jobId, failedReason }) => this.each(jobId, (w) => w.settle({ kind: 'error', text: '', error: failedReason })))
    events.on('removed', ({ jobId }) => this.each(jobId, (w) => w.settle(NOT_STARTED)))
    events.on('error', () => {}) // an outage: the reader reconnects and goes on from its last event
  }

  /** Opens a reader of `queue`'s events from the newest one now in the stream (`redis`: to read where that is). */
  static async open(queue: Queue<RunJobData, RunResult>, redis: Redis, url: string): Promise<RunWatcher> {
    const newest = await redis.xrevrange(queue.keys.events, '+', '-', 'COUNT', 1)
    const events = new QueueEvents(queue.name, { connection: bullConnection(url), prefix: PREFIX, lastEventId: newest[0]?.[0] ?? '0-0' })
    await events.waitUntilReady()
    return new RunWatcher(queue, events)
  }

  /** Waits for job `jobId` to end, passing its progress to `onProgress`. */
  wait(jobId: string, onProgress?: (event: RunProgress) => void): Watch {
    let resolve!: (result: RunResult) => void
    const result = new Promise<RunResult>((r) => { resolve = r })
    const stop = () => {
      const set = this.waiters.get(jobId)
      set?.delete(waiter)
      if (set?.size === 0) this.waiters.delete(jobId)
    }
    const waiter: Waiter = {
      onProgress,
      settle: (value) => {
        stop()
        resolve(value)
      },
    }
    this.waiters.set(jobId, (this.waiters.get(jobId) ?? new Set()).add(waiter))
    return { result, stop }
  }

  /** Settles the waits for `jobId` from the job's stored state, when it has already ended. */
  async check(jobId: string): Promise<void> {
    if (!this.waiters.has(jobId)) return
    // The state first, then the job: a job read before it completes would carry no return value yet.
    const state = await this.queue.getJobState(jobId)
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return
    const job = await Job.fromId<RunJobData, RunResult>(this.queue, jobId)
    if (!job) this.each(jobId, (w) => w.settle(NOT_STARTED))
    else if (state === 'completed') this.each(jobId, (w) => w.settle(job.returnvalue))
    else if (state === 'failed') this.each(jobId, (w) => w.settle({ kind: 'error', text: '', error: job.failedReason }))
  }

  private each(jobId: string, act: (waiter: Waiter) => void): void {
    const set = this.waiters.get(jobId)
    if (set) for (const waiter of [...set]) act(waiter)
  }

  async close(): Promise<void> {
    this.waiters.clear()
    await this.events.close()
  }
}
