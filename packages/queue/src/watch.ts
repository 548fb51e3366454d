/**
 * Watching runs from a submitter: one BullMQ `QueueEvents` reader per client, reading the
 * queue's event stream from where it stood when the reader was opened, and routing each job's
 * progress and end to whoever waits for that job. A wait registered before its job is added
 * misses none of its events that the stream still holds: the reader resumes from its last
 * event after Redis comes back. But the stream is trimmed (BullMQ keeps about 10,000 events:
 * a reader that fell behind loses the oldest), and a Redis that restarts without its data has
 * none: so the job's stored state is read as well, once when the wait begins (`check`, for a
 * run that ended before), then every `recheckMs` and whenever the reader reconnects, for as
 * long as anyone waits. A job found ended settles its waits from what Redis stored; a job that
 * was there and is gone settles them with a `JOB_LOST` error, since how it ended is not known.
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

/** The `code` of a run whose job went from Redis before its end was seen. */
export const JOB_LOST = 'JOB_LOST'

/** How often a wait reads its job's state again by default (ms). */
export const RECHECK_MS = 5000

export class RunWatcher {
  // Every wait, by job: a submitter and a canceller may wait for the same job.
  private readonly waiters = new Map<string, Set<Waiter>>()
  // The jobs whose state was read once (`check`): read again on every round until they end.
  private readonly checked = new Set<string>()
  private readonly timer: NodeJS.Timeout
  private round: Promise<void> | undefined

  private constructor(private readonly queue: Queue<RunJobData, RunResult>, private readonly events: QueueEvents, recheckMs: number) {
    // A worker sends progress in batches (an array of events); each is passed on in order.
    events.on('progress', ({ jobId, data }) => {
      const batch = (Array.isArray(data) ? data : [data]) as RunProgress[]
      this.each(jobId, (w) => { for (const event of batch) w.onProgress?.(event) })
    })
    events.on('completed', ({ jobId, returnvalue }) => this.each(jobId, (w) => w.settle(returnvalue as unknown as RunResult)))
    events.on('failed', ({ jobId, failedReason }) => this.each(jobId, (w) => w.settle({ kind: 'error', text: '', error: failedReason })))
    events.on('removed', ({ jobId }) => this.each(jobId, (w) => w.settle(NOT_STARTED)))
    events.on('error', () => {}) // an outage: the reader reconnects and goes on from its last event
    this.timer = setInterval(() => void this.recheck(), recheckMs).unref()
  }

  /**
   * Opens a reader of `queue`'s events from the newest one now in the stream (`redis`: to read
   * where that is); waits read their job's state again every `recheckMs`.
   */
  static async open(queue: Queue<RunJobData, RunResult>, redis: Redis, url: string, recheckMs = RECHECK_MS): Promise<RunWatcher> {
    const newest = await redis.xrevrange(queue.keys.events, '+', '-', 'COUNT', 1)
    const events = new QueueEvents(queue.name, { connection: bullConnection(url), prefix: PREFIX, lastEventId: newest[0]?.[0] ?? '0-0' })
    await events.waitUntilReady()
    const watcher = new RunWatcher(queue, events, recheckMs)
    // Back after an outage: what ended meanwhile may be gone from the stream (or Redis with it).
    ;(await events.client).on('ready', () => void watcher.recheck())
    return watcher
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

  /**
   * Settles the waits for `jobId` from the job's stored state, when it has already ended (a job
   * not there at all was removed before it started), and reads it again on every later round.
   */
  async check(jobId: string): Promise<void> {
    if (!this.waiters.has(jobId)) return
    this.checked.add(jobId)
    await this.look(jobId, NOT_STARTED)
  }

  /** One round: the state of every job still waited for that was checked once. Never throws. */
  private recheck(): Promise<void> {
    return this.round ??= (async () => {
      try {
        for (const jobId of [...this.checked]) {
          if (!this.waiters.has(jobId)) this.checked.delete(jobId)
          else await this.look(jobId, lost(jobId)).catch(() => {}) // Redis away: the next round
        }
      } finally {
        this.round = undefined
      }
    })()
  }

  /** Settles the waits for `jobId` when it has ended, or with `gone` when it is not in Redis. */
  private async look(jobId: string, gone: RunResult): Promise<void> {
    // The state first, then the job: a job read before it completes would carry no return value yet.
    const state = await this.queue.getJobState(jobId)
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return
    const job = await Job.fromId<RunJobData, RunResult>(this.queue, jobId)
    if (!job) this.each(jobId, (w) => w.settle(gone))
    else if (state === 'completed') this.each(jobId, (w) => w.settle(job.returnvalue))
    else if (state === 'failed') this.each(jobId, (w) => w.settle({ kind: 'error', text: '', error: job.failedReason }))
  }

  private each(jobId: string, act: (waiter: Waiter) => void): void {
    const set = this.waiters.get(jobId)
    if (set) for (const waiter of [...set]) act(waiter)
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    this.waiters.clear()
    this.checked.clear()
    await this.events.close()
  }
}

/** The end reported for job `jobId`, seen in Redis before and gone from it now. */
function lost(jobId: string): RunResult {
  return {
    kind: 'error', text: '', code: JOB_LOST,
    error: `job ${jobId} is gone from Redis before its end was seen (Redis lost its data, or the job was removed): ` +
      'how the run ended is not known; its session holds what it did',
  }
}
