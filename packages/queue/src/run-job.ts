/**
 * One attempt of one run job, on a worker. It opens the job's session in PostgreSQL (one
 * writer per session, enforced by the database), decides from what is stored whether this is
 * a fresh run, a resumed one or one already ended (`planRun`), gets an agent on that session
 * (`agents.ts`: a new agent of the worker's shared harness, or a harness of its own) and runs
 * it with a signal that aborts when the run is cancelled; the run's progress is its own agent's
 * events only. With the writer lock held it marks the session with the job's id before the job
 * writes anything, and stores the run's outcome there when it ends (`marker.ts`): an attempt
 * whose worker lost the job's lock before it opened the session (another worker may have run
 * the job to its end meanwhile) finds them, and reports the stored outcome instead of running
 * the task again.
 * Guarantees: the task is written to the session at most once; a call whose result is stored is
 * never run again (the agent's resume repair settles the others); a run that ended (any kind)
 * is not run again by a later attempt of its job; every way a run ends is a `RunResult`. Only
 * what happens before the run begins throws, so that BullMQ tries the job again later:
 * PostgreSQL away, before the session is read or while its start marker is written (each
 * spends one of the job's attempts). A session another process still holds is not a failure:
 * the holder is alive (PostgreSQL lets go of a dead one's lock at once), most likely a worker
 * cut off from Redis finishing this very run, so the job is put back, delayed, without
 * spending an attempt (`DelayedError`), for as long as the holder keeps it; the attempt after
 * it lets go finds the outcome stored. The submitter is told only that the session is in use; who holds it (pid,
 * host, backend, address) goes to the worker's log.
 */
import { DelayedError, type Job } from 'bullmq'
import type { RunOutcome, SessionEntry, SessionStore } from '@rein/agent'
import { PostgresSessionError, postgresSession, type PostgresSessionStore } from '@rein/session-postgres'
import type { AgentSource, RunAgent } from './agents.js'
import type { SessionPool } from './session-pool.js'
import { CANCELLED, type CancelListener } from './cancel-channel.js'
import { jobDataProblem, type RunJobData, type RunResult } from './job.js'
import { observeRuns, type RunProgress } from './progress.js'
import { progressSender } from './progress-sender.js'
import { marksOf, outcomeMarker, startMarker } from './marker.js'
import { planRun, textOf } from './resume.js'

/** What every attempt on a worker shares. */
export interface RunEnv {
  worker: string
  /** Where the sessions' connections come from (kept between runs). */
  sessions: SessionPool
  agents: AgentSource
  cancels: CancelListener
}

/** What the submitter is told while another process holds the session (who it is stays in the worker's log). */
export const SESSION_IN_USE = 'session in use by another process'

/** How long a job waits for a held session before it looks again: 0.5 s, doubling, at most 10 s. */
export function lockedDelayMs(waits: number): number {
  return Math.min(500 * 2 ** Math.max(0, waits), 10_000)
}

/**
 * Runs one attempt of `job`; `token` is the worker's lock on it, `signal` BullMQ's own (aborted
 * by `worker.cancelJob`). Throws `DelayedError` when the session is held elsewhere (the job is
 * already back in the queue, delayed), any other error for BullMQ to try the job again.
 */
export async function runJob(job: Job<RunJobData, RunResult>, token: string | undefined, signal: AbortSignal | undefined, env: RunEnv): Promise<RunResult> {
  const ended = (result: RunResult): RunResult => ({ ...result, worker: env.worker, attempts: job.attemptsStarted })
  const problem = jobDataProblem(job.data)
  if (problem !== undefined) return ended({ kind: 'error', text: '', error: `job ${job.id} is not a rein run: ${problem}` })
  const data = job.data
  const controller = new AbortController()
  const untrack = env.cancels.track(job.id!, controller)
  const unlink = follow(signal, controller)
  const progress = progressSender((events) => job.updateProgress(events))
  let store: PostgresSessionStore | undefined
  let run: RunAgent | undefined
  try {
    // Whether the run was cancelled is asked of Redis while PostgreSQL opens the session: one
    // round trip less before the run starts. A cancelled attempt only closes the store again.
    const cancelled = env.cancels.requested(job.id!)
    let refused: unknown
    try {
      store = postgresSession({ pool: env.sessions, id: data.session })
    } catch (error) {
      refused = error
    }
    const loading = store?.load().then((loaded) => ({ loaded }), (error: unknown) => ({ error }))
    if (await cancelled.finally(() => loading)) return ended({ kind: 'aborted', text: '', error: 'cancelled before this attempt started' })
    // A session id or option the store refuses: no later attempt differs.
    if (!store || !loading) return ended(failure(refused))
    let entries: SessionEntry[]
    try {
      const read = await loading
      if ('error' in read) throw read.error
      entries = read.loaded
    } catch (error) {
      // Nothing of this run has happened yet: unless the stored log is damaged (which waiting
      // does not mend), wait and try again, while PostgreSQL comes back or the session's
      // other writer lets go.
      if (!(error instanceof PostgresSessionError) || error.code === 'SESSION_DAMAGED') return ended(failure(error))
      if (error.code === 'SESSION_LOCKED') return await waitForHolder(job, token, progress.send, env.worker, error)
      progress.send({ kind: 'waiting', at: Date.now(), worker: env.worker, reason: error.message })
      throw error
    }
    const plan = planRun(entries, data, job.id!)
    if (plan.kind === 'ended') return ended(plan.result)
    if (plan.kind === 'finished') return ended({ kind: 'completed', text: plan.text })
    if (plan.kind === 'nothing') return ended({ kind: 'error', text: '', error: `session ${JSON.stringify(data.session)}: ${plan.reason}` })
    // Before the task (and anything else of this job): what every later attempt plans from.
    if (marksOf(entries, job.id!).started === undefined) entries = [...entries, await store.append(startMarker(job.id!))]
    progress.send({
      kind: 'started', at: Date.now(), worker: env.worker, attempt: job.attemptsStarted, resumed: plan.kind === 'resume',
      repaired: plan.kind === 'resume' ? plan.repairs : { outcomeUnknown: 0, notStarted: 0 },
      ...(data.continuation ? { continuation: true as const } : {}),
    })
    try {
      run = await env.agents.open(primed(store, entries))
    } catch (error) {
      return ended(failure(error, env.agents.failure))
    }
    const stop = observeRuns(run.ctx, progress.send, run.name)
    try {
      const result = resultOf(await run.agent.run(plan.kind === 'fresh' ? data.task : undefined, { signal: controller.signal }))
      // A store that failed mid-run refuses this too: a later attempt then plans from the transcript.
      await store.append(outcomeMarker(job.id!, result)).catch(() => {})
      return ended(result)
    } finally {
      stop()
    }
  } finally {
    unlink()
    untrack()
    await run?.release()
    await store?.close().catch(() => {})
    await progress.flush()
  }
}

/**
 * Puts `job` back in the queue, delayed, without spending an attempt, and throws `DelayedError`
 * (which tells BullMQ the job was moved): its message, for the worker's log, names the holder.
 */
async function waitForHolder(job: Job<RunJobData, RunResult>, token: string | undefined, send: (event: RunProgress) => void,
  worker: string, locked: PostgresSessionError): Promise<never> {
  const delay = lockedDelayMs(job.attemptsStarted - job.attemptsMade - 1)
  send({ kind: 'waiting', at: Date.now(), worker, reason: SESSION_IN_USE })
  await job.moveToDelayed(Date.now() + delay, token)
  throw new DelayedError(`${locked.message}; looking again in ${delay} ms (no attempt spent)`)
}

/** The submitter's view of an agent outcome. */
function resultOf(outcome: RunOutcome): RunResult {
  const last = outcome.messages.at(-1)
  const text = last?.role === 'assistant' && !last.toolCalls?.length ? textOf(last.content) : ''
  if (outcome.kind === 'awaiting-approval') return { kind: outcome.kind, text, approvals: outcome.approvals ?? [] }
  if (outcome.kind !== 'error') return { kind: outcome.kind, text }
  return { ...failure(outcome.error), text }
}

/** An `error` result from anything thrown: its message, and its code when it has a string one. */
function failure(error: unknown, prefix = ''): RunResult {
  const message = error instanceof Error ? error.message : String(error ?? 'unknown error')
  const code = (error as { code?: unknown } | null)?.code
  return { kind: 'error', text: '', error: `${prefix}${message}`, ...(typeof code === 'string' ? { code } : {}) }
}

/** `store`, whose first `load` answers with `entries` (just read) instead of reading them again. */
function primed(store: SessionStore, entries: SessionEntry[]): SessionStore {
  let first: SessionEntry[] | undefined = entries
  return {
    id: store.id,
    load: async () => {
      const given = first
      first = undefined
      return given ?? store.load()
    },
    append: (entry) => store.append(entry),
    close: async () => {}, // the worker closes the store, after the agent
  }
}

/** Aborts `controller` when `signal` aborts; returns the unlink. */
function follow(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (!signal) return () => {}
  const abort = () => controller.abort(signal.reason ?? CANCELLED)
  if (signal.aborted) abort()
  signal.addEventListener('abort', abort, { once: true })
  return () => signal.removeEventListener('abort', abort)
}
