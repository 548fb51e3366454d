/**
 * An attempt that lost its job before it opened the session: its worker stalled (frozen,
 * paused, cut off) past the job's lock, another worker took the job over and ran it to its
 * end, and then the stalled attempt goes on with the job as it read it. It is driven here
 * directly (`runJob` with the copy of the job it was given and a lock token Redis no longer
 * knows), after the other worker's run has ended: no timing involved. It must report the
 * stored outcome and run nothing: not the task again, not another round of turns.
 */
import { Job, Queue, QueueEvents } from 'bullmq'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadHarness, type Harness } from '@rein/loader'
import { JOB_NAME, RUN_JOB_OPTIONS, createWorker, type RunJobData, type RunResult } from '../src/index.js'
import { agentSourceOf } from '../src/agents.js'
import { CancelListener } from '../src/cancel-channel.js'
import { newJobId } from '../src/job.js'
import { PREFIX, keysOf } from '../src/options.js'
import { runJob, type RunEnv } from '../src/run-job.js'
import { SessionPool } from '../src/session-pool.js'
import { describeWithServers, ledger, loadFixture, newQueue, newSession, sessionEntries } from './servers.js'

describeWithServers('an attempt whose worker lost the job before it opened the session', (servers) => {
  const name = newQueue()
  let fixture: Harness
  let capped: Harness
  let queue: Queue<RunJobData, RunResult>
  let events: QueueEvents
  let late: RunEnv
  beforeAll(async () => {
    const { redis, postgres } = servers()
    fixture = await loadFixture(postgres.url)
    capped = await loadHarness(new URL('./fixtures/capped.yaml', import.meta.url).pathname, { env: { REIN_LEDGER_URL: postgres.url } })
    const connection = { url: redis.url, maxRetriesPerRequest: null }
    queue = new Queue(name, { connection, prefix: PREFIX })
    events = new QueueEvents(name, { connection, prefix: PREFIX })
    await events.waitUntilReady()
    late = {
      worker: 'late', sessions: new SessionPool(postgres.url, 1), agents: agentSourceOf(fixture, 'test'),
      cancels: await CancelListener.open(redis.url, keysOf({ redis: redis.url, queue: name }, 'test')),
    }
  })
  afterAll(async () => {
    await late?.cancels.close()
    await late?.sessions.end()
    await events?.close()
    await queue?.close()
    await Promise.all([fixture?.dispose(), capped?.dispose()])
  })

  /** Adds a run of `session`, keeps the copy a worker taking it now would hold, and has another worker run it to its end. */
  async function takenOver(session: string, harness: Harness) {
    const added = await queue.add(JOB_NAME, { session, task: `ledger:${session}` }, { ...RUN_JOB_OPTIONS, jobId: newJobId() })
    const stale = (await Job.fromId<RunJobData, RunResult>(queue, added.id!))!
    const other = await createWorker({ redis: servers().redis.url, postgres: servers().postgres.url, queue: name, harness, name: 'other' })
    const result = await added.waitUntilFinished(events) as RunResult
    await other.close()
    return { stale, result }
  }

  it('reports the answer the other worker stored, and writes and runs nothing again', async () => {
    const session = newSession()
    const { stale, result } = await takenOver(session, fixture)
    expect(result).toMatchObject({ kind: 'completed', worker: 'other' })

    const again = await runJob(stale, 'a-lock-redis-no-longer-knows', undefined, late)

    expect(again).toMatchObject({ kind: 'completed', text: result.text, worker: 'late' })
    expect(await ledger(servers().admin, [session])).toHaveLength(5)
    const users = (await sessionEntries(servers().admin, session)).filter((e) => e.type === 'message' && e.message.role === 'user')
    expect(users).toHaveLength(1)
  })

  it('reports a run that ended max-turns as it ended, without another round of turns', async () => {
    const session = newSession()
    const { stale, result } = await takenOver(session, capped)
    expect(result).toMatchObject({ kind: 'max-turns', worker: 'other' })
    // The job as Redis holds it now, after the other worker's attempt.
    const current = (await Job.fromId<RunJobData, RunResult>(queue, stale.id!))!

    const again = await runJob(current, 'a-lock-redis-no-longer-knows', undefined, { ...late, agents: agentSourceOf(capped, 'test') })

    expect(again).toMatchObject({ kind: 'max-turns', text: result.text, worker: 'late' })
    expect(await ledger(servers().admin, [session])).toHaveLength(3)
  })
})
