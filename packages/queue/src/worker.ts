/**
 * `createWorker(options)`: a process's share of the work. It takes run jobs from the queue,
 * at most `concurrency` at once, and runs each on its session (`runJob`). While it runs a job
 * it renews the job's lock every `lockDurationMs / 2`; a worker that dies stops renewing, and
 * once the lock has expired the next stalled check of any worker (every `stalledIntervalMs`)
 * puts the job back in the queue, for a worker that resumes the session. Redis and PostgreSQL
 * are checked before the first job is taken, so a wrong URL fails the start, not every run.
 */
import { hostname } from 'node:os'
import { Worker, type Job } from 'bullmq'
import { migrate } from '@rein/session-postgres'
import { CancelListener } from './cancel-channel.js'
import { QueueCodes, QueueError } from './codes.js'
import { JOB_NAME, type RunJobData, type RunResult } from './job.js'
import { PREFIX, count, keysOf, redactRedis, text, type QueueTarget } from './options.js'
import { bullConnection, checkRedis } from './redis.js'
import { runJob, type HarnessFactory } from './run-job.js'

/** Options of `createWorker`. */
export interface WorkerOptions extends QueueTarget {
  /** Builds the harness for one run on its session, e.g. `(session) => loadHarness('rein.yaml', { session })`. */
  harness: HarnessFactory
  /** The PostgreSQL the sessions live in: `postgres://user:password@host:port/db`. */
  postgres: string
  /** Runs at once in this process (default 4). */
  concurrency?: number
  /** How long a job's lock lasts without renewal (default 30000): a dead worker's runs wait this long, at most, before they can be taken over. */
  lockDurationMs?: number
  /** How often this worker looks for jobs whose lock has expired (default 30000). */
  stalledIntervalMs?: number
  /** How many times one job may be taken over after its worker died before it fails (default 3). */
  maxStalledCount?: number
  /** How this worker is named on jobs and in progress (default `host:pid`). */
  name?: string
  /** One line per job started and ended, and per problem with Redis (default: none). */
  log?: (line: string) => void
}

/** A running worker. */
export interface RunWorker {
  readonly name: string
  readonly queue: string
  /** Runs in progress here. */
  readonly active: number
  /** Takes no more jobs and resolves once the runs in progress have ended. */
  close(): Promise<void>
}

const CALLER = 'createWorker'

/** Checks the servers, then starts taking jobs. Throws `QueueError` when a server cannot be used. */
export async function createWorker(options: WorkerOptions): Promise<RunWorker> {
  const keys = keysOf(options, CALLER)
  if (typeof options.harness !== 'function') {
    throw new QueueError(QueueCodes.OPTIONS_INVALID, `${CALLER}: "harness" must be a function of the session, e.g. (session) => loadHarness(path, { session })`)
  }
  const postgres = text(CALLER, 'postgres', options.postgres)
  const concurrency = count(CALLER, 'concurrency', options.concurrency, 4)
  const lockDuration = count(CALLER, 'lockDurationMs', options.lockDurationMs, 30_000, 100)
  const stalledInterval = count(CALLER, 'stalledIntervalMs', options.stalledIntervalMs, 30_000, 100)
  const maxStalledCount = count(CALLER, 'maxStalledCount', options.maxStalledCount, 3, 0)
  const name = options.name ?? `${hostname()}:${process.pid}`
  const log = options.log ?? (() => {})

  await checkRedis(options.redis, CALLER)
  await migrate({ connectionString: postgres }).catch((error: Error) => {
    throw new QueueError(QueueCodes.POSTGRES_UNAVAILABLE, `${CALLER}: ${error.message} (--postgres or REIN_DATABASE_URL)`)
  })
  const cancels = await CancelListener.open(options.redis, keys)
  let active = 0

  const handle = async (job: Job<RunJobData, RunResult>, _token?: string, signal?: AbortSignal): Promise<RunResult> => {
    if (job.name !== JOB_NAME) return { kind: 'error', text: '', error: `job ${job.id} is named "${job.name}", not "${JOB_NAME}": not a rein run` }
    active++
    const started = Date.now()
    log(`${job.id} session ${JSON.stringify(job.data?.session)}: attempt ${job.attemptsStarted} started`)
    try {
      const result = await runJob(job, signal, { worker: name, postgres, harness: options.harness, cancels })
      log(`${job.id}: ${result.kind} in ${Date.now() - started} ms${result.error ? ` (${result.error})` : ''}`)
      return result
    } catch (error) {
      log(`${job.id}: will be tried again: ${(error as Error).message}`)
      throw error
    } finally {
      active--
    }
  }
  const worker = new Worker<RunJobData, RunResult>(keys.name, handle, {
    connection: bullConnection(options.redis), prefix: PREFIX, name,
    concurrency, lockDuration, stalledInterval, maxStalledCount,
  })
  worker.on('error', quietly(log, options.redis))
  worker.on('stalled', (jobId) => log(`${jobId}: its worker stopped renewing its lock; back in the queue to be resumed`))
  await worker.waitUntilReady()

  let closing: Promise<void> | undefined
  return {
    name,
    queue: keys.name,
    get active() { return active },
    close: () => closing ??= (async () => {
      await worker.close()
      await cancels.close()
    })(),
  }
}

/** Logs a Redis error once, not once per reconnect attempt, with any password cut out. */
function quietly(log: (line: string) => void, url: string): (error: Error) => void {
  let last = ''
  let at = 0
  return (error) => {
    const message = redactRedis(error.message, url)
    if (message === last && Date.now() - at < 10_000) return
    last = message
    at = Date.now()
    log(`redis: ${message}; retrying`)
  }
}
