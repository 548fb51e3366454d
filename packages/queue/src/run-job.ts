/**
 * One attempt of one run job, on a worker. It opens the job's session in PostgreSQL (one
 * writer per session, enforced by the database), decides from what is stored whether this is
 * a fresh run or a resumed one (`planRun`), builds the harness on that session and runs the
 * agent with a signal that aborts when the run is cancelled. Guarantees: the task is written
 * to the session at most once; a call whose result is stored is never run again (the agent's
 * resume repair settles the others); every way a run ends is a `RunResult`. Only what happens
 * before the run begins throws, so that BullMQ tries the job again later: a session that cannot
 * be opened yet (PostgreSQL away, or another process still holding it), and Redis failing to
 * record `inputAfter`.
 */
import type { Context } from 'cordis'
import type { Job } from 'bullmq'
import type { Agent, RunOutcome, SessionEntry, SessionStore } from '@rein/agent'
import { PostgresSessionError, postgresSession, type PostgresSessionStore } from '@rein/session-postgres'
import { CANCELLED, type CancelListener } from './cancel-channel.js'
import { jobDataProblem, type RunJobData, type RunResult } from './job.js'
import { observeRuns, type RunProgress } from './progress.js'
import { planRun, textOf } from './resume.js'

/** A harness built on one session: what `loadHarness(path, { session })` and `createHarness({ session })` return. */
export interface RunHarness {
  ctx: Context
  readonly agent: Agent
  dispose(): Promise<void>
}

/** Builds the harness for one run on `session` (the worker closes the session; the harness must not). */
export type HarnessFactory = (session: SessionStore) => Promise<RunHarness>

/** What every attempt on a worker shares. */
export interface RunEnv {
  worker: string
  postgres: string
  harness: HarnessFactory
  cancels: CancelListener
}

/** Runs one attempt of `job`; `signal` is BullMQ's own (aborted by `worker.cancelJob`). */
export async function runJob(job: Job<RunJobData, RunResult>, signal: AbortSignal | undefined, env: RunEnv): Promise<RunResult> {
  const ended = (result: RunResult): RunResult => ({ ...result, worker: env.worker, attempts: job.attemptsStarted })
  const problem = jobDataProblem(job.data)
  if (problem !== undefined) return ended({ kind: 'error', text: '', error: `job ${job.id} is not a rein run: ${problem}` })
  const data = job.data
  const controller = new AbortController()
  const untrack = env.cancels.track(job.id!, controller)
  const unlink = follow(signal, controller)
  const progress = progressOf(job)
  let store: PostgresSessionStore | undefined
  let harness: RunHarness | undefined
  try {
    if (await env.cancels.requested(job.id!)) return ended({ kind: 'aborted', text: '', error: 'cancelled before this attempt started' })
    store = postgresSession({ connectionString: env.postgres, id: data.session })
    let entries
    try {
      entries = await store.load()
    } catch (error) {
      // Nothing of this run has happened yet: unless the stored log is damaged (which waiting
      // does not mend), wait and try again, while PostgreSQL comes back or the session's
      // other writer lets go.
      if (!(error instanceof PostgresSessionError) || error.code === 'SESSION_DAMAGED') return ended(failure(error))
      progress.send({ kind: 'waiting', at: Date.now(), worker: env.worker, reason: error.message })
      throw error
    }
    const plan = planRun(entries, data)
    if (plan.kind === 'finished') return ended({ kind: 'completed', text: plan.text })
    if (plan.kind === 'fresh' && data.inputAfter === undefined) await job.updateData({ ...data, inputAfter: plan.inputAfter })
    progress.send({
      kind: 'started', at: Date.now(), worker: env.worker, attempt: job.attemptsStarted, resumed: plan.kind === 'resume',
      repaired: plan.kind === 'resume' ? plan.repairs : { outcomeUnknown: 0, notStarted: 0 },
    })
    let agent: Agent
    try {
      harness = await env.harness(primed(store, entries))
      agent = harness.agent // built on first read: a missing provider throws here
    } catch (error) {
      return ended(failure(error, 'the harness did not load: '))
    }
    const stop = observeRuns(harness.ctx, progress.send)
    try {
      const outcome = await agent.run(plan.kind === 'fresh' ? data.task : undefined, { signal: controller.signal })
      return ended(resultOf(outcome))
    } finally {
      stop()
    }
  } finally {
    unlink()
    untrack()
    await harness?.dispose().catch(() => {})
    await store?.close().catch(() => {})
    await progress.flush()
  }
}

/** The submitter's view of an agent outcome. */
function resultOf(outcome: RunOutcome): RunResult {
  const last = outcome.messages.at(-1)
  const text = last?.role === 'assistant' && !last.toolCalls?.length ? textOf(last.content) : ''
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
    load: async () => {
      const given = first
      first = undefined
      return given ?? store.load()
    },
    append: (entry) => store.append(entry),
    close: async () => {}, // the worker closes the store, after the harness
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

/**
 * Sends progress in order. An event goes out at once when no send is in flight; events that
 * come while one is go out together in the next send, so a busy run costs fewer round trips
 * and an idle one waits for none. A failed send is dropped.
 */
function progressOf(job: Job<RunJobData, RunResult>) {
  let waiting: RunProgress[] = []
  let sending: Promise<void> | undefined
  const drain = async () => {
    while (waiting.length > 0) {
      const batch = waiting
      waiting = []
      await job.updateProgress(batch).catch(() => {})
    }
    sending = undefined
  }
  return {
    send(event: RunProgress) {
      waiting.push(event)
      sending ??= drain()
    },
    flush: async () => { await sending },
  }
}
