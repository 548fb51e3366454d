import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { buildMessages, type SessionEntry } from '@rein/agent'
import { createHarness, type Harness } from '@rein/loader'
import { postgresSession } from '@rein/session-postgres'
import { callMessage, scripted, sleepTool, textMessage, toolCall, validateTranscript } from '@rein/testing'
import { createQueueClient, createWorker, submit, type HarnessFactory, type RunProgress, type SharedHarness } from '../src/index.js'
import { describeWithServers, ledger, loadFixture, newQueue, newSession, sessionEntries } from './servers.js'

const sleepers = { name: 'sleepers', inject: ['tools'], apply: (ctx: Context) => { ctx.tools.register(sleepTool()) } }

/** A harness per run, whose model asks for one `sleep` of `ms`, then answers `slept`. */
const sleeper = (ms: number): HarnessFactory => (session) => createHarness({
  provider: scripted([callMessage([toolCall('nap', 'sleep', { ms })]), textMessage('slept')]),
  tools: [sleepers],
  session,
})

describeWithServers('createWorker and submit', (servers) => {
  const target = () => ({ redis: servers().redis.url, queue: newQueue() })
  const worker = (queue: string, harness: SharedHarness | HarnessFactory, concurrency = 2) =>
    createWorker({ redis: servers().redis.url, postgres: servers().postgres.url, queue, harness, concurrency })
  // Loaded once, as `rein worker` does, and shared by the workers of these tests.
  let fixture: Harness
  beforeAll(async () => { fixture = await loadFixture(servers().postgres.url) })
  afterAll(async () => { await fixture?.dispose() })

  it('runs a submitted run on its session, passes its progress on in order, and returns the final text', async () => {
    const { redis, queue } = target()
    const session = newSession()
    const running = await worker(queue, fixture)
    const events: RunProgress[] = []
    const { jobId, result } = await submit({ redis, queue, session, task: `ledger:${session}`, onProgress: (e) => events.push(e) })
    await running.close()

    expect(jobId).toMatch(/^run-/)
    expect(result).toMatchObject({ kind: 'completed', text: `recorded 5 steps for ${session}`, worker: running.name, attempts: 1 })
    expect(events.map((e) => e.kind)).toEqual(['started', ...Array.from({ length: 5 }, () => ['call-start', 'call-end', 'turn-end']).flat()])
    expect(events[0]).toMatchObject({ kind: 'started', resumed: false, attempt: 1, repaired: { outcomeUnknown: 0, notStarted: 0 } })
    expect(events.filter((e) => e.kind === 'call-end').every((e) => e.kind === 'call-end' && e.ok)).toBe(true)
    expect(await ledger(servers().admin, [session])).toHaveLength(5)
    const entries = await sessionEntries(servers().admin, session)
    expect(validateTranscript(buildMessages(entries as SessionEntry[]))).toEqual([])
  })

  it('adds a second run to the same session after the first, with the task written once per run', async () => {
    const { redis, queue } = target()
    const session = newSession()
    const running = await worker(queue, fixture)
    const client = await createQueueClient({ redis, queue })
    await client.submit({ session, task: `ledger:${session}` })
    const second = await client.submit({ session, task: 'and once more' })
    await client.close()
    await running.close()

    expect(second.result).toMatchObject({ kind: 'completed', text: `recorded 5 steps for ${session}` })
    const users = (await sessionEntries(servers().admin, session)).filter((e) => e.type === 'message' && e.message.role === 'user')
    expect(users.map((e) => e.message.content)).toEqual([`ledger:${session}`, 'and once more'])
  })

  it('refuses a second run on a session that has one queued, naming the job and how to cancel it', async () => {
    const { redis, queue } = target()
    const session = newSession()
    const client = await createQueueClient({ redis, queue })
    const first = await client.submit({ session, task: 'one', wait: false })
    await expect(client.submit({ session, task: 'two', wait: false })).rejects.toMatchObject({
      code: 'SESSION_BUSY',
      message: expect.stringContaining(`already has a run queued or running (job ${first.jobId}); one run per session at a time`),
    })
    expect(await client.cancel(session)).toEqual({ kind: 'removed', session, jobId: first.jobId })
    await client.close()
  })

  it('cancels a running run from another client: it ends aborted long before its sleep would, and the session stays valid', async () => {
    const { redis, queue } = target()
    const session = newSession()
    const running = await worker(queue, sleeper(60_000))
    const client = await createQueueClient({ redis, queue })
    let callStarted!: () => void
    const started = new Promise<void>((resolve) => { callStarted = resolve })
    const submitted = client.submit({ session, task: 'nap', onProgress: (e) => { if (e.kind === 'call-start') callStarted() } })
    await started
    const asked = Date.now()
    const cancelled = await client.cancel(session)
    const tookMs = Date.now() - asked
    const { result } = await submitted
    await client.close()
    await running.close()

    expect(cancelled).toMatchObject({ kind: 'signalled', session, result: { kind: 'aborted' } })
    expect(result).toMatchObject({ kind: 'aborted' })
    // The sleep is 60 s: ending within 10 s is the cancel at work, with room for a loaded machine.
    expect(tookMs).toBeLessThan(10_000)
    const entries = await sessionEntries(servers().admin, session)
    expect(entries.find((e) => e.type === 'tool/result')).toMatchObject({ code: 'ABORTED' })
    expect(validateTranscript(buildMessages(entries as SessionEntry[]))).toEqual([])
  })

  it('cancels a queued run: it never starts, and its submitter is told', async () => {
    const { redis, queue } = target()
    const session = newSession()
    const client = await createQueueClient({ redis, queue })
    const waiting = client.submit({ session, task: 'never' })
    let jobId: string | null = null
    while (!jobId) jobId = await sleep(20).then(() => client.cancel(session, { waitMs: 0 }).then((c) => c.kind === 'removed' ? c.jobId : null))
    expect((await waiting).result).toEqual({ kind: 'aborted', text: '', error: 'cancelled before it started' })
    expect(await client.cancel(session)).toEqual({ kind: 'not-found', session })
    await client.close()
    expect(await sessionEntries(servers().admin, session)).toEqual([])
  })

  it('does not start with a harness that cannot make an agent, and says why', async () => {
    const { queue } = target()
    const harness = await createHarness({ tools: [sleepers] })
    await expect(worker(queue, harness)).rejects.toMatchObject({
      code: 'OPTIONS_INVALID',
      message: 'createWorker: the harness cannot make an agent: no provider: pass { provider } to createHarness',
    })
    await harness.dispose()
  })

  it('refuses a harness that is neither loaded nor a function, naming both forms', async () => {
    await expect(worker(newQueue(), {} as SharedHarness)).rejects.toMatchObject({
      code: 'OPTIONS_INVALID',
      message: expect.stringContaining('createWorker: "harness" must be a harness loaded once, e.g. await loadHarness(\'rein.yaml\'), or a function'),
    })
  })

  it('ends a run whose harness (built per run) does not load with an error, once, without trying it again', async () => {
    const { redis, queue } = target()
    const running = await worker(queue, async () => { throw new Error('rein.yaml:3 provider: createProvider failed') })
    const { result } = await submit({ redis, queue, session: newSession(), task: 'x' })
    await running.close()
    expect(result).toMatchObject({ kind: 'error', error: 'the harness did not load: rein.yaml:3 provider: createProvider failed', attempts: 1 })
  })

  it('waits while another process holds the session, then runs the job once it is free', async () => {
    const { redis, queue } = target()
    const session = newSession()
    const holder = postgresSession({ connectionString: servers().postgres.url, id: session })
    await holder.load()
    const running = await worker(queue, fixture)
    // The first attempt found the session held (it says so as progress): free it then.
    let waiting!: () => void
    const triedOnce = new Promise<void>((resolve) => { waiting = resolve })
    const submitted = submit({ redis, queue, session, task: `ledger:${session}`, onProgress: (p) => { if (p.kind === 'waiting') waiting() } })
    await triedOnce
    expect(await ledger(servers().admin, [session])).toEqual([])
    await holder.close()
    const { result } = await submitted
    await running.close()
    expect(result).toMatchObject({ kind: 'completed', text: `recorded 5 steps for ${session}` })
    expect(result!.attempts).toBeGreaterThan(1)
  })
})

describeWithServers('servers that cannot be used', (servers) => {
  const harness: HarnessFactory = async () => { throw new Error('not used: the worker does not start') }

  it('a worker does not start without Redis, and says where it looked without the password', async () => {
    const start = createWorker({ redis: 'redis://:sekret-pw@127.0.0.1:1/0', postgres: servers().postgres.url, harness })
    await expect(start).rejects.toMatchObject({ code: 'REDIS_UNAVAILABLE' })
    const { message } = await start.catch((error: Error) => error) as Error
    expect(message).toMatch(/^createWorker: cannot use Redis at 127\.0\.0\.1:1\/0 \(.*ECONNREFUSED.*\); check that it is running/)
    expect(message).not.toContain('sekret-pw')
  })

  it('a worker does not start with a wrong Redis password, and does not print it', async () => {
    const url = servers().redis.url.replace(encodeURIComponent(servers().redis.password), 'wrong-sekret')
    const error = await createWorker({ redis: url, postgres: servers().postgres.url, harness }).catch((e: Error) => e) as Error
    expect(error.message).toMatch(/cannot use Redis at 127\.0\.0\.1:\d+\/0 \(WRONGPASS/)
    expect(error.message).not.toContain('wrong-sekret')
  })

  it('a worker does not start without PostgreSQL, and says where it looked without the password', async () => {
    const error = await createWorker({ redis: servers().redis.url, postgres: 'postgres://rein:sekret-pw@127.0.0.1:1/rein', harness })
      .catch((e: Error) => e) as Error & { code: string }
    expect(error.code).toBe('POSTGRES_UNAVAILABLE')
    expect(error.message).toMatch(/^createWorker: migrate: cannot connect to PostgreSQL at 127\.0\.0\.1:1\/rein \(.*\); nothing was created \(--postgres or REIN_DATABASE_URL\)$/)
    expect(error.message).not.toContain('sekret-pw')
  })

  it('a submitter without Redis fails at once, naming the server', async () => {
    await expect(submit({ redis: 'redis://127.0.0.1:1', session: 's', task: 't' })).rejects.toThrow(
      /^queue client: cannot use Redis at 127\.0\.0\.1:1\/0 \(/)
  })
})
