/**
 * Job data is not trusted for a run's progress: anyone with access to Redis can add a job, and
 * a field like an older worker's `inputAfter` must neither drop the task (0 on a session with
 * history) nor make a retry write it again (a value past the session's end).
 */
import { Queue, QueueEvents } from 'bullmq'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Harness } from '@rein/loader'
import { JOB_NAME, RUN_JOB_OPTIONS, createWorker, submit, type RunJobData, type RunResult, type RunWorker } from '../src/index.js'
import { newJobId } from '../src/job.js'
import { PREFIX } from '../src/options.js'
import { describeWithServers, loadFixture, newQueue, newSession, sessionEntries } from './servers.js'

describeWithServers('job data written by hand', (servers) => {
  const name = newQueue()
  let fixture: Harness
  let queue: Queue<RunJobData, RunResult>
  let events: QueueEvents
  let running: RunWorker
  beforeAll(async () => {
    fixture = await loadFixture(servers().postgres.url)
    const connection = { url: servers().redis.url, maxRetriesPerRequest: null }
    queue = new Queue(name, { connection, prefix: PREFIX })
    events = new QueueEvents(name, { connection, prefix: PREFIX })
    await events.waitUntilReady()
    running = await createWorker({ redis: servers().redis.url, postgres: servers().postgres.url, queue: name, harness: fixture })
  })
  afterAll(async () => {
    await running?.close()
    await events?.close()
    await queue?.close()
    await fixture?.dispose()
  })
  const users = async (session: string) => (await sessionEntries(servers().admin, session))
    .filter((e) => e.type === 'message' && e.message.role === 'user').map((e) => e.message.content)

  it('runs the task of a job that claims the session already holds it (inputAfter 0 on a session with history)', async () => {
    const session = newSession()
    await submit({ redis: servers().redis.url, queue: name, session, task: `ledger:${session}` })
    const forged = { session, task: `ledger:${session} again`, inputAfter: 0 } as RunJobData
    const job = await queue.add(JOB_NAME, forged, { ...RUN_JOB_OPTIONS, jobId: newJobId() })
    const result = await job.waitUntilFinished(events) as RunResult

    expect(result).toMatchObject({ kind: 'completed' })
    expect(await users(session)).toEqual([`ledger:${session}`, `ledger:${session} again`])
    // The fixture's model counts the session's calls: it answers the new task at once.
    const messages = (await sessionEntries(servers().admin, session)).filter((e) => e.type === 'message')
    expect(messages.slice(-2).map((e) => e.message.role)).toEqual(['user', 'assistant'])
  })
})
