import { Job, Queue, QueueEvents, type JobsOptions } from 'bullmq'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Harness } from '@rein/loader'
import { postgresSession } from '@rein/session-postgres'
import { JOB_NAME, RUN_JOB_OPTIONS, createQueueClient, createWorker, type RunJobData, type RunProgress, type RunResult } from '../src/index.js'
import { newJobId } from '../src/job.js'
import { PREFIX, sessionId } from '../src/options.js'
import { SESSION_IN_USE, lockedDelayMs } from '../src/run-job.js'
import { describeWithServers, loadFixture, newQueue, newSession, sessionEntries } from './servers.js'

const LONE = 'must be well-formed Unicode, but has a lone surrogate (U+D800 at index 6), ' +
  'which PostgreSQL would store as U+FFFD: the id would name another session'
const BAD_IDS = { long: 'x'.repeat(513), nul: 'a\u0000b', lone: 'alias:\uD800' }

describe('a session id, as the queue checks it', () => {
  it('follows the session store\'s rule, naming the caller and what is wrong', () => {
    expect(() => sessionId('submit', BAD_IDS.lone)).toThrow(`submit: "session" ${LONE}`)
    expect(() => sessionId('cancel', BAD_IDS.nul)).toThrow('cancel: "session" must not contain U+0000 (at index 1): PostgreSQL text cannot hold it')
    expect(() => sessionId('submit', BAD_IDS.long)).toThrow('submit: "session" must be at most 512 characters, got 513')
    expect(() => sessionId('submit', '')).toThrow('submit: "session" must be a non-empty string naming the session, got an empty string')
    expect(sessionId('submit', 'alias:\uFFFD')).toBe('alias:\uFFFD')
  })

  it('looks again at a held session after 0.5 s, doubling, at most every 10 s', () => {
    expect([0, 1, 2, 4, 5, 30].map(lockedDelayMs)).toEqual([500, 1000, 2000, 8000, 10_000, 10_000])
  })
})

describeWithServers('session ids and held sessions on a worker', (servers) => {
  let fixture: Harness
  let queue: Queue<RunJobData, RunResult>
  let events: QueueEvents
  const logs: string[] = []
  const name = newQueue()
  const connection = () => ({ url: servers().redis.url, maxRetriesPerRequest: null })
  beforeAll(async () => {
    fixture = await loadFixture(servers().postgres.url)
    queue = new Queue(name, { connection: connection(), prefix: PREFIX })
    events = new QueueEvents(name, { connection: connection(), prefix: PREFIX })
    await events.waitUntilReady()
  })
  afterAll(async () => {
    await events?.close()
    await queue?.close()
    await fixture?.dispose()
  })
  const startWorker = () => createWorker({
    redis: servers().redis.url, postgres: servers().postgres.url, queue: name, harness: fixture, log: (line) => logs.push(line),
  })
  /** A run job added straight to the queue, as a client other than `submit` could. */
  const add = (data: RunJobData, options: JobsOptions = {}) =>
    queue.add(JOB_NAME, data, { ...RUN_JOB_OPTIONS, jobId: newJobId(), deduplication: { id: data.session }, ...options })

  it('refuses at submit and cancel an id PostgreSQL would merge with another or cannot hold, queueing nothing', async () => {
    const client = await createQueueClient({ redis: servers().redis.url, queue: name })
    await expect(client.submit({ session: BAD_IDS.lone, task: 't', wait: false })).rejects.toMatchObject({
      code: 'OPTIONS_INVALID', message: `submit: "session" ${LONE}`,
    })
    await expect(client.submit({ session: BAD_IDS.nul, task: 't', wait: false })).rejects.toMatchObject({ code: 'OPTIONS_INVALID' })
    await expect(client.submit({ session: BAD_IDS.long, task: 't', wait: false })).rejects.toMatchObject({ code: 'OPTIONS_INVALID' })
    await expect(client.cancel(BAD_IDS.lone)).rejects.toMatchObject({ code: 'OPTIONS_INVALID', message: `cancel: "session" ${LONE}` })
    await client.close()
    expect(await queue.getJobCountByTypes('waiting', 'delayed', 'active')).toBe(0)
  })

  it('ends a job whose session id the store refuses with an error, in its first attempt, storing nothing', async () => {
    const running = await startWorker()
    const results = []
    for (const session of Object.values(BAD_IDS)) {
      const job = await add({ session, task: 'ledger:bad' })
      results.push({ id: job.id, result: await job.waitUntilFinished(events) })
    }
    await running.close()
    expect(results.map(({ result }) => result)).toEqual(results.map(({ id }) => expect.objectContaining({
      kind: 'error', attempts: 1, error: expect.stringMatching(new RegExp(`^job ${id} is not a rein run: "session" must `)),
    })))
    expect(await sessionEntries(servers().admin, 'alias:\uFFFD')).toEqual([])
  })

  it('waits for a session a live process holds without spending attempts; tells the submitter only that it is in use', async () => {
    const session = newSession()
    const holder = postgresSession({ connectionString: servers().postgres.url, id: session })
    await holder.load()
    const running = await startWorker()
    const reasons: string[] = []
    let waitedThrice!: () => void
    const thrice = new Promise<void>((resolve) => { waitedThrice = resolve })
    const onProgress = ({ data }: { data: unknown }) => {
      for (const event of [data].flat() as RunProgress[]) if (event.kind === 'waiting') reasons.push(event.reason)
      if (reasons.length >= 3) waitedThrice()
    }
    events.on('progress', onProgress)
    // A budget of 2 attempts: spending one per wait, the job would fail after the second.
    const job = await add({ session, task: `ledger:${session}` }, { attempts: 2, backoff: { type: 'fixed', delay: 50 } })
    const finished = job.waitUntilFinished(events).catch((error: Error) => ({ failed: error.message }))
    await Promise.race([thrice, finished])
    expect(reasons.length).toBeGreaterThanOrEqual(3)
    await holder.close()
    const result = await finished
    events.off('progress', onProgress)
    await running.close()

    expect(result).toMatchObject({ kind: 'completed', text: `recorded 5 steps for ${session}` })
    expect(new Set(reasons)).toEqual(new Set([SESSION_IN_USE]))
    const stored = await Job.fromId<RunJobData, RunResult>(queue, job.id!)
    expect(stored?.failedReason).toBeFalsy()
    expect(logs.join('\n')).toMatch(new RegExp(`${job.id}: waits: session "${session}" is already open for writing by another process ` +
      '\\(rein pid \\d+ on .+; PostgreSQL backend \\d+, client 127\\.0\\.0\\.1\\).*; looking again in 500 ms \\(no attempt spent\\)'))
  })
})
