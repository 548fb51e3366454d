/**
 * Durable approvals on a fleet, on real Redis and PostgreSQL: a worker parks a call that needs
 * a person and is free at once; the answer is written from another process; a continuation
 * goes on on another worker; the ledger shows every side effect exactly once.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { answerApproval, pendingApprovals, type AgentOptions } from '@rein/agent'
import { createHarness, loadHarness, type Harness } from '@rein/loader'
import { createGate } from '@rein/testing'
import { createQueueClient, createWorker, postgresSession, type QueueClient, type RunWorker } from '../src/index.js'
import { ROOT, startWorker as startProcess, whyNoCli } from './fleet.js'
import { describeWithServers, ledger, newQueue, newSession, sessionEntries } from './servers.js'

const PARK = join(ROOT, 'packages', 'queue', 'test', 'fixtures', 'park.yaml')
const REASON = 'risky steps need a person'

describeWithServers('approvals on a fleet: a run parks, a person answers, any worker continues', (servers) => {
  const harnesses: Harness[] = []
  let queue: string
  let client: QueueClient
  const workers: RunWorker[] = []
  beforeAll(async () => {
    queue = newQueue()
    client = await createQueueClient({ redis: servers().redis.url, queue })
  })
  afterAll(async () => {
    await client?.close()
    await Promise.all(workers.map((w) => w.close()))
    await Promise.all(harnesses.map((h) => h.dispose()))
  })

  /** A worker of its own harness (as a `rein worker` process has), parking by default. */
  const startWorker = async (name: string) => {
    const { redis, postgres } = servers()
    const harness = await loadHarness(PARK, { env: { REIN_LEDGER_URL: postgres.url } })
    harnesses.push(harness)
    const worker = await createWorker({ redis: redis.url, postgres: postgres.url, queue, harness, concurrency: 1, name })
    workers.push(worker)
    return worker
  }

  /** Writes `answer` to the one request of `session` that waits, from a store of its own (another process would do the same). */
  const answer = async (session: string, reply: 'allow-once' | 'allow-session' | 'deny') => {
    const store = postgresSession({ connectionString: servers().postgres.url, id: session })
    try {
      const [pending, ...more] = await pendingApprovals(store)
      expect(more).toEqual([])
      await answerApproval(store, pending!.id, reply, { by: 'alice' })
      return pending!.id
    } finally {
      await store.close()
    }
  }

  it('submit → park (the worker is free: another session runs meanwhile) → approve → another worker (a rein worker process) continues → every effect once', async () => {
    const a = await startWorker('worker-a')
    const s = newSession('park')
    const parked = await client.submit({ session: s, task: s })
    expect(parked.result).toMatchObject({
      kind: 'awaiting-approval', worker: 'worker-a',
      approvals: [{ callId: `${s}-2`, tool: 'ledger', arguments: { session: s, step: 2, kind: 'risky' }, reason: REASON }],
    })
    // The worker runs one run at a time, and runs another session now: the parked one holds nothing.
    const other = newSession('other')
    expect((await client.submit({ session: other, task: other })).result).toMatchObject({ kind: 'awaiting-approval', worker: 'worker-a' })
    expect((await ledger(servers().admin, [other])).map((row) => row.call)).toEqual(expect.arrayContaining([`${other}-1`, `${other}-3`]))
    await a.close()

    const id = await answer(s, 'allow-once') // the worker let go of the session: its writer lock is free
    // Another worker, a `rein worker` process of the same rein.yaml (which parks by default).
    const missing = whyNoCli()
    if (missing) throw new Error(missing)
    const { redis, postgres } = servers()
    const b = await startProcess({ redis: redis.url, postgres: postgres.url, queue, concurrency: 1, lockDurationMs: 30_000, stalledIntervalMs: 30_000, config: PARK })
    try {
      const continued = await client.submit({ session: s, continue: true })
      expect(continued.result).toMatchObject({ kind: 'completed', worker: b.name, text: `${s}: ${s}-1 ok, ${s}-2 ok, ${s}-3 ok` })

      const rows = (await ledger(servers().admin, [s])).map((row) => row.call)
      expect(rows.sort()).toEqual([`${s}-1`, `${s}-2`, `${s}-3`])
      const entries = await sessionEntries(servers().admin, s)
      expect(entries.filter((e) => e.type === 'approval/request').map((e) => e.id)).toEqual([id])
      expect(entries.filter((e) => e.type === 'approval/answer')).toMatchObject([{ id, answer: 'allow-once', by: 'alice' }])
      expect(entries.filter((e) => e.type === 'message' && e.message.role === 'user')).toHaveLength(1)

      // A continuation queued again finds the session finished: nothing runs, the model is not asked.
      const again = await client.submit({ session: s, continue: true })
      expect(again.result).toMatchObject({ kind: 'completed', text: `${s}: ${s}-1 ok, ${s}-2 ok, ${s}-3 ok` })
      expect((await ledger(servers().admin, [s])).length).toBe(3)
      expect((await sessionEntries(servers().admin, s)).length).toBe(entries.length)

      // The process parks too: a new session's risky call waits, and its other calls ran.
      const third = newSession('third')
      expect((await client.submit({ session: third, task: third })).result).toMatchObject({ kind: 'awaiting-approval', worker: b.name })
    } finally {
      await b.stop()
    }
  }, 60_000)

  it('a deny ends the call TOOL_DENIED and the run completes; an allow-session answer covers its own session only', async () => {
    await startWorker('worker-c')
    const [denied, kept, next] = [newSession('deny'), newSession('kept'), newSession('next')]
    expect((await client.submit({ session: denied, task: denied })).result?.kind).toBe('awaiting-approval')
    await answer(denied, 'deny')
    expect((await client.submit({ session: denied, continue: true })).result).toMatchObject({ kind: 'completed', text: `${denied}: ${denied}-1 ok, ${denied}-2 refused, ${denied}-3 ok` })
    expect((await ledger(servers().admin, [denied])).map((row) => row.call).sort()).toEqual([`${denied}-1`, `${denied}-3`])

    expect((await client.submit({ session: kept, task: kept })).result?.kind).toBe('awaiting-approval')
    await answer(kept, 'allow-session')
    expect((await client.submit({ session: kept, continue: true })).result?.kind).toBe('completed')
    // The same worker, the same harness, the same rule: another session is asked again.
    expect((await client.submit({ session: next, task: next })).result).toMatchObject({ kind: 'awaiting-approval', approvals: [{ callId: `${next}-2` }] })
  })

  it('a continuation with its request unanswered parks again under the same id; one on an empty session is an error', async () => {
    await startWorker('worker-d')
    const s = newSession('wait')
    const first = await client.submit({ session: s, task: s })
    const again = await client.submit({ session: s, continue: true })
    expect(again.result).toMatchObject({ kind: 'awaiting-approval', approvals: [{ id: first.result!.approvals![0]!.id }] })
    expect((await ledger(servers().admin, [s])).length).toBe(2)
    const empty = newSession('empty')
    expect((await client.submit({ session: empty, continue: true })).result).toMatchObject({
      kind: 'error', error: `session "${empty}": the session is empty: there is no run to continue (submit a task first)`,
    })
  })

  it('a continuation while the session has a run queued is that run: one job, not two', async () => {
    const idle = newQueue() // no worker takes its jobs
    const quiet = await createQueueClient({ redis: servers().redis.url, queue: idle })
    try {
      const s = newSession('queued')
      const one = await quiet.submit({ session: s, continue: true, wait: false })
      const two = await quiet.submit({ session: s, continue: true, wait: false })
      expect(two.jobId).toBe(one.jobId)
      await expect(quiet.submit({ session: s, task: 'more', wait: false })).rejects.toMatchObject({ code: 'SESSION_BUSY' })
      await expect(quiet.submit({ session: s, task: 'x', continue: true })).rejects.toMatchObject({ code: 'OPTIONS_INVALID', message: expect.stringContaining('"task" and "continue" exclude each other') })
    } finally {
      await quiet.close()
    }
  })
})

describeWithServers('a continuation queued while the session\'s run is running', (servers) => {
  /** For the task `<label>`: one `wait` call (id `<label>-call`), then `<label>: done`. */
  const model: AgentOptions['provider'] = {
    async generate({ messages }) {
      const label = String(messages.find((m) => m.role === 'user')?.content)
      if (messages.some((m) => m.role === 'tool')) return { role: 'assistant', content: `${label}: done` }
      return { role: 'assistant', content: '', toolCalls: [{ id: `${label}-call`, name: 'wait', arguments: '{}' }] }
    },
  }

  it('waits for that run to end (it may have read the session before the answer), then goes on after it', async () => {
    const gate = createGate()
    const harness = await createHarness({ provider: model, tools: [{ name: 'gated', inject: ['tools'], apply: (ctx: Context) => { ctx.tools.register(gate.tool('wait')) } }] })
    const { redis, postgres } = servers()
    const queue = newQueue()
    const worker = await createWorker({ redis: redis.url, postgres: postgres.url, queue, harness, concurrency: 2 })
    const client = await createQueueClient({ redis: redis.url, queue })
    try {
      const s = newSession('busy')
      const running = client.submit({ session: s, task: s })
      await gate.whenStarted(`${s}-call`)
      const ended: string[] = []
      const continuation = client.submit({ session: s, continue: true }).finally(() => { ended.push('continuation') })
      void running.finally(() => { ended.push('run') })
      gate.release(`${s}-call`, 'ok')
      const [first, second] = [await running, await continuation]
      expect(ended).toEqual(['run', 'continuation'])
      expect(first.result).toMatchObject({ kind: 'completed', text: `${s}: done` })
      expect(second.jobId).not.toBe(first.jobId)
      expect(second.result).toMatchObject({ kind: 'completed', text: `${s}: done` }) // the session was finished: nothing more ran
      expect(gate.started).toEqual([`${s}-call`])
    } finally {
      await client.close()
      await worker.close()
      await harness.dispose()
    }
  })
})
