/**
 * `@rein/queue`: agent runs as BullMQ jobs on Redis, sessions in PostgreSQL. Workers on any
 * number of machines take runs (`createWorker`); submitters add them and watch their progress
 * (`submit`); `cancel` reaches whichever worker runs one. A worker that dies is replaced by one
 * that resumes the session: a call whose result was stored is never run again, a call in flight
 * at the crash is reported TOOL_OUTCOME_UNKNOWN, unless its tool's `reconcile` says whether it
 * ran (then its value is committed, or it runs once more under the same key), and a run that
 * ended is reported, not run again (the session records each job's start and outcome).
 *
 *   await createWorker({ redis, postgres, harness: await loadHarness('rein.yaml') })
 *   const { result } = await submit({ redis, session: 'ticket-4711', task: 'go on', onProgress })
 */
export { createWorker, type WorkerOptions, type RunWorker } from './worker.js'
export { createQueueClient, submit, cancel, type ClientOptions, type QueueClient } from './client.js'
export { RUN_JOB_OPTIONS, type SubmitRequest, type Submitted } from './submit.js'
export type { CancelOutcome } from './cancel.js'
export type { HarnessFactory, RunHarness, SharedHarness } from './agents.js'
export { JOB_NAME, type RunJobData, type RunResult } from './job.js'
export { describeProgress, type RunProgress } from './progress.js'
export { planRun, type RunPlan, type Repairs } from './resume.js'
export { DEFAULT_QUEUE, MAX_TIMER_MS, WORKER_LIMITS, postgresTarget, postgresUrlProblem, redisTarget, type QueueTarget } from './options.js'
// `rein db migrate` and a worker's start create the session table with the session store's own migrate;
// `rein approvals` / `rein approve` open a fleet session with its store.
export { migrate, postgresSession, sessionIdProblem } from '@rein/session-postgres'
export { checkRedis } from './redis.js'
export { QueueCodes, QueueError, type QueueCode } from './codes.js'
