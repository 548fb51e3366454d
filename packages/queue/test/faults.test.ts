import { setTimeout as sleep } from 'node:timers/promises'
import { expect, it } from 'vitest'
import { createQueueClient, createWorker, type RunProgress } from '../src/index.js'
import { audit } from './audit.js'
import { describeWithServers, loadFixture, newQueue, newSession } from './servers.js'

const CALLS = 5

describeWithServers('runs through server faults', (servers) => {
  /** Submits `count` ledger sessions at once to a worker running `concurrency` of them; `onCallStart(n)` is told of the n-th call started. */
  const load = async (count: number, concurrency: number, lockDurationMs: number, onCallStart: (n: number) => void | Promise<void>) => {
    const { redis, postgres } = servers()
    const queue = newQueue()
    const harness = await loadFixture(postgres.url)
    const worker = await createWorker({
      redis: redis.url, postgres: postgres.url, queue, harness,
      concurrency, lockDurationMs, stalledIntervalMs: 500,
    })
    const client = await createQueueClient({ redis: redis.url, queue })
    const sessions = Array.from({ length: count }, () => newSession('fault'))
    let started = 0
    let fault: Promise<void> = Promise.resolve()
    const waited = new Set<string>()
    const progressOf = (session: string) => (event: RunProgress) => {
      if (event.kind === 'waiting') waited.add(session)
      if (event.kind === 'call-start') fault = fault.then(() => onCallStart(++started))
    }
    const results = await Promise.all(sessions.map((session) => client.submit({ session, task: `ledger:${session}`, onProgress: progressOf(session) })))
    await fault
    const close = async () => {
      await client.close()
      await worker.close()
      await harness.dispose()
    }
    return { sessions, results: results.map((r) => r.result!), waited, client, close }
  }

  it.each([
    { case: 'back within the lock duration: runs wait and go on', lockDurationMs: 20_000, outageMs: 1000, takenOver: false },
    { case: 'away longer than the lock duration: runs are taken over, and no call runs twice', lockDurationMs: 1000, outageMs: 2500, takenOver: true },
  ])('Redis killed mid-load and restarted from its append-only file, $case; nothing is lost', async ({ lockDurationMs, outageMs, takenOver }) => {
    const { redis } = servers()
    const { sessions, results, close } = await load(8, 8, lockDurationMs, async (n) => {
      if (n !== 12) return
      await redis.stop('kill')
      await sleep(outageMs)
      await redis.start()
    })
    await close()

    for (const [i, result] of results.entries()) expect(result).toMatchObject({ kind: 'completed', text: `recorded ${CALLS} steps for ${sessions[i]}` })
    expect(results.some((r) => r.attempts! > 1)).toBe(takenOver)
    expect((await audit(servers().admin, sessions, CALLS)).problems).toEqual([])
  }, 60_000)

  it('PostgreSQL stopped mid-load: runs in progress end error with a clear message, queued ones wait; every session resumes', async () => {
    const { postgres } = servers()
    const { sessions, results, waited, client, close } = await load(8, 4, 5000, async (n) => {
      if (n !== 8) return
      await postgres.stop('fast')
      await sleep(1500)
      await postgres.start()
    })
    const failed = sessions.filter((_, i) => results[i].kind === 'error')
    expect(failed.length).toBeGreaterThan(0)
    expect(waited.size).toBeGreaterThan(0)
    for (const [i, result] of results.entries()) {
      if (result.kind === 'completed') continue
      expect(result).toMatchObject({ kind: 'error', code: 'SESSION_WRITE_FAILED' })
      expect(result.error).toMatch(new RegExp(`^postgres session "${sessions[i]}": .* PostgreSQL at 127\\.0\\.0\\.1:\\d+/postgres`))
      expect(result.error).not.toContain(postgres.password)
    }
    for (const session of waited) expect(results[sessions.indexOf(session)].kind).toBe('completed')

    const resumed = await Promise.all(failed.map(async (session) => (await client.submit({ session, task: `ledger:${session}` })).result!))
    await close()
    for (const [i, result] of resumed.entries()) expect(result).toMatchObject({ kind: 'completed', text: `recorded ${CALLS} steps for ${failed[i]}` })
    const report = await audit(servers().admin, sessions, CALLS)
    expect(report.problems).toEqual([])
    expect(report.outcomeUnknown + report.notStarted).toBeGreaterThan(0)
  }, 60_000)
}, { redis: { appendOnly: true } })
