import { expect, it } from 'vitest'
import { createQueueClient, type RunProgress } from '../src/index.js'
import { audit } from './audit.js'
import { startWorker, whyNoCli } from './fleet.js'
import { describeWithServers, newQueue, newSession } from './servers.js'

const SESSIONS = 20
const CALLS = 5

describeWithServers('rein worker processes under load', (servers) => {
  it(`${SESSIONS} sessions over 3 workers, one killed with -9 mid-load: every session completes and no call runs twice`, async () => {
    const missing = whyNoCli()
    if (missing) throw new Error(missing)
    const { redis, postgres } = servers()
    const queue = newQueue()
    const options = { redis: redis.url, postgres: postgres.url, queue, concurrency: 4, lockDurationMs: 1500, stalledIntervalMs: 500 }
    const fleet = await Promise.all([1, 2, 3].map(() => startWorker(options)))
    const [victim] = fleet
    const client = await createQueueClient({ redis: redis.url, queue })
    const sessions = Array.from({ length: SESSIONS }, () => newSession('fleet'))
    const starts: Array<RunProgress & { kind: 'started' }> = []
    let callStarts = 0
    let crashed: Promise<void> | undefined
    // The victim's calls started, by session: it is killed before any of its runs can end.
    const victimCalls = new Map<string, number>()
    const workerOf = new Map<string, string>()
    const onProgress = (session: string) => (event: RunProgress) => {
      if (event.kind === 'started') {
        starts.push(event)
        workerOf.set(session, event.worker)
      }
      if (event.kind !== 'call-start' || crashed) return
      const mine = workerOf.get(session) === victim.name ? (victimCalls.get(session) ?? 0) + 1 : 0
      victimCalls.set(session, mine)
      // A third of the way in, every worker has runs with calls in flight; at the latest when
      // one of the victim's runs starts its last call but one.
      if (++callStarts === Math.round((SESSIONS * CALLS) / 3) || mine === CALLS - 1) crashed = victim.crash()
    }
    const submitted = await Promise.all(sessions.map((session) => client.submit({ session, task: `ledger:${session}`, onProgress: onProgress(session) })))
    await crashed
    await client.close()
    await Promise.all(fleet.slice(1).map((w) => w.stop()))

    for (const [i, { result }] of submitted.entries()) {
      expect(result, sessions[i]).toMatchObject({ kind: 'completed', text: `recorded ${CALLS} steps for ${sessions[i]}` })
      expect(result!.worker).not.toBe(victim.name)
    }
    const resumed = starts.filter((s) => s.resumed)
    expect(resumed.length).toBeGreaterThan(0)
    expect(resumed.every((s) => s.worker !== victim.name && s.attempt > 1)).toBe(true)
    const report = await audit(servers().admin, sessions, CALLS)
    expect(report.problems).toEqual([])
    expect(report.outcomeUnknown).toBeGreaterThan(0)
    expect(report.outcomeUnknown).toBe(resumed.reduce((n, s) => n + s.repaired.outcomeUnknown, 0))
  }, 90_000)
})
