/**
 * `createWorker(options)`: a process's share of the work. It takes run jobs from the queue,
 * at most `concurrency` at once, and runs each on its session (`runJob`), with a new agent of
 * the harness it was given, loaded once for the process (or, given a function of the session,
 * with a harness built for each run: `agents.ts`). While it runs a job
 * it renews the job's lock every `lockDurationMs / 2`; a worker that dies stops renewing, and
 * once the lock has expired the next stalled check of any worker (every `stalledIntervalMs`)
 * puts the job back in the queue, for a worker that resumes the session. Redis and PostgreSQL
 * are checked before the first job is taken, and so is the harness (it must make an agent), so a
 * wrong URL or a harness without a provider fails the start, not every run. The sessions'
 * PostgreSQL connections are kept between runs, reset before each reuse (`session-pool.ts`).
 */
import { hostname } from 'node:os'
import { DelayedError, Worker, type Job } from 'bullmq'
import type { ApprovalsMode } from '@rein/agent'
import { migrate } from '@rein/session-postgres'
import { CancelListener } from './cancel-channel.js'
import { QueueCodes, QueueError } from './codes.js'
import { JOB_NAME, type RunJobData, type RunResult } from './job.js'
import { PREFIX, WORKER_LIMITS, count, keysOf, postgresUrlProblem, redactRedis, text, type QueueTarget } from './options.js'
import { bullConnection, checkRedis } from './redis.js'
import { agentSourceOf, checkHarness, type HarnessFactory, type SharedHarness } from './agents.js'
import { runJob } from './run-job.js'
import { SessionPool } from './session-pool.js'

/** Options of `createWorker`. */
export interface WorkerOptions extends QueueTarget {
  /**
   * The harness the runs use. Either loaded once, e.g. `await loadHarness('rein.yaml')`: every run
   * gets a new agent on its own session from it (`agentFor`), sharing its plugins, tools and their
   * state; the caller disposes it after `close()`. Or a function building a harness per run,
   * e.g. `(session) => loadHarness('rein.yaml', { session })`: nothing is shared between runs (a
   * permission-guard's "allow-session" answers included), at the cost of a harness load per run.
   */
  harness: SharedHarness | HarnessFactory
  /**
   * What the agents of a shared harness do with an ask nobody has answered (default `park`:
   * nobody is at a worker's terminal). `park`: the run ends `awaiting-approval` and the worker
   * is free; `answerApproval` (or `rein approve`) writes the answer and a continuation
   * (`submit({ session, continue: true })`) goes on, on any worker. `ask`: the harness's
   * `approvalPrompt`, else a deny. A harness built per run keeps its own `agent.approvals`.
   */
  approvals?: ApprovalsMode
  /** The PostgreSQL the sessions live in: `postgres://user:password@host:port/db` (a malformed URL: `POSTGRES_UNAVAILABLE`). */
  postgres: string
  /** Runs at once in this process (default 4, at most 10,000). */
  concurrency?: number
  /**
   * How long a job's lock lasts without renewal (ms, default 30000, from 100 to 2^31 - 1, a
   * Node.js timer's longest): a dead worker's runs wait this long, at most, before they can be taken over.
   */
  lockDurationMs?: number
  /** How often this worker looks for jobs whose lock has expired (ms, default 30000, from 100 to 2^31 - 1). */
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
  /**
   * Takes no more jobs and resolves once the runs in progress have ended and the sessions'
   * connections are closed. A shared harness is left running: its caller disposes it.
   */
  close(): Promise<void>
}

const CALLER = 'createWorker'

/** Checks the harness and the servers, then starts taking jobs. Throws `QueueError` when one cannot be used. */
export async function createWorker(options: WorkerOptions): Promise<RunWorker> {
  const keys = keysOf(options, CALLER)
  const approvals = options.approvals ?? 'park'
  if (approvals !== 'park' && approvals !== 'ask') {
    throw new QueueError(QueueCodes.OPTIONS_INVALID, `${CALLER}: "approvals" must be 'park' or 'ask', got ${JSON.stringify(approvals)}`)
  }
  const agents = agentSourceOf(options.harness, CALLER, approvals)
  const postgres = text(CALLER, 'postgres', options.postgres)
  const malformed = postgresUrlProblem(postgres)
  if (malformed !== undefined) throw new QueueError(QueueCodes.POSTGRES_UNAVAILABLE, `${CALLER}: the PostgreSQL URL ${malformed} (--postgres or REIN_DATABASE_URL)`)
  const limit = (option: keyof typeof WORKER_LIMITS, fallback: number) =>
    count(CALLER, option, options[option], fallback, WORKER_LIMITS[option].min, WORKER_LIMITS[option].max)
  const concurrency = limit('concurrency', 4)
  const lockDuration = limit('lockDurationMs', 30_000)
  const stalledInterval = limit('stalledIntervalMs', 30_000)
  const maxStalledCount = limit('maxStalledCount', 3)
  const name = options.name ?? `${hostname()}:${process.pid}`
  const log = options.log ?? (() => {})

  checkHarness(options.harness, CALLER)
  await checkRedis(options.redis, CALLER)
  await migrate({ connectionString: postgres }).catch((error: Error) => {
    throw new QueueError(QueueCodes.POSTGRES_UNAVAILABLE, `${CALLER}: ${error.message} (--postgres or REIN_DATABASE_URL)`)
  })
  const cancels = await CancelListener.open(options.redis, keys)
  const sessions = new SessionPool(postgres, concurrency)
  let active = 0

  const handle = async (job: Job<RunJobData, RunResult>, token?: string, signal?: AbortSignal): Promise<RunResult> => {
    if (job.name !== JOB_NAME) return { kind: 'error', text: '', error: `job ${job.id} is named "${job.name}", not "${JOB_NAME}": not a rein run` }
    active++
    const started = Date.now()
    log(`${job.id} session ${JSON.stringify(job.data?.session)}: attempt ${job.attemptsStarted} started`)
    try {
      const result = await runJob(job, token, signal, { worker: name, sessions, agents, cancels })
      log(`${job.id}: ${result.kind} in ${Date.now() - started} ms${result.error ? ` (${result.error})` : ''}`)
      return result
    } catch (error) {
      log(`${job.id}: ${error instanceof DelayedError ? 'waits' : 'will be tried again'}: ${(error as Error).message}`)
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
      await sessions.end()
    })(),
  }
}

/** BullMQ's errors about one job's lock or key (`Missing lock for job <id>. moveToFinished`, ...): nothing retries them. */
const JOB_LOCK_LOST = /^(Missing (lock|key) for job |could not renew lock for job |Lock mismatch for job |Job \S+ is not in the )/

/**
 * Logs a Redis error once, not once per reconnect attempt, with any password cut out. A
 * connection's errors are retried (it reconnects); an error about one job's lock is not: this
 * worker no longer holds that job, and says what becomes of it.
 */
export function quietly(log: (line: string) => void, url: string): (error: Error) => void {
  let last = ''
  let at = 0
  return (error) => {
    const message = redactRedis(error.message, url)
    if (message === last && Date.now() - at < 10_000) return
    last = message
    at = Date.now()
    log(JOB_LOCK_LOST.test(message)
      ? `redis: ${message}: not retried; this worker no longer holds the job (its lock lapsed: another worker may ` +
        'take it over, and reports the outcome stored in the session; or Redis lost it)'
      : `redis: ${message}; retrying`)
  }
}
