import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { buildMessages, type AgentOptions, type SessionEntry } from '@rein/agent'
import { createHarness, loadHarness, type BuiltHarness } from '@rein/loader'
import { createGate, validateTranscript, type Gate } from '@rein/testing'
import { createQueueClient, createWorker, type HarnessFactory, type RunProgress, type SharedHarness } from '../src/index.js'
import { ROOT } from './fleet.js'
import { describeWithServers, newQueue, newSession, sessionEntries } from './servers.js'

const FIXTURES = join(ROOT, 'packages', 'queue', 'test', 'fixtures')

/**
 * A model that decides from the transcript alone, as one provider serving many sessions must:
 * for the task `<label>` it asks for `wait` once (call id `<label>-call`), then answers
 * `<label>: <the result's text>`.
 */
const oneCall: AgentOptions['provider'] = {
  async generate({ messages }) {
    const label = String(messages.find((m) => m.role === 'user')?.content)
    const result = messages.find((m) => m.role === 'tool')
    if (result?.role === 'tool') return { role: 'assistant', content: `${label}: ${result.content.map((b) => b.type === 'text' ? b.text : '').join('')}` }
    return { role: 'assistant', content: '', toolCalls: [{ id: `${label}-call`, name: 'wait', arguments: JSON.stringify({ session: label }) }] }
  },
}

/** What a session holds: its user messages, the ids of its calls, its results' codes, and what is wrong with its transcript. */
function stored(entries: Array<Record<string, any>>) {
  return {
    tasks: entries.filter((e) => e.type === 'message' && e.message.role === 'user').map((e) => e.message.content),
    calls: entries.filter((e) => e.type === 'tool/call').map((e) => e.call.id),
    codes: entries.filter((e) => e.type === 'tool/result').map((e) => e.code ?? 'OK'),
    valid: validateTranscript(buildMessages(entries as SessionEntry[])),
  }
}

describeWithServers('one harness shared by the runs of a worker', (servers) => {
  let gate: Gate
  let harness: BuiltHarness
  beforeAll(async () => {
    gate = createGate()
    harness = await createHarness({
      provider: oneCall,
      tools: [{ name: 'gated', inject: ['tools'], apply: (ctx: Context) => { ctx.tools.register(gate.tool('wait')) } }],
    })
  })
  afterAll(async () => { await harness?.dispose() })

  const start = async (concurrency: number) => {
    const { redis, postgres } = servers()
    const queue = newQueue()
    const worker = await createWorker({ redis: redis.url, postgres: postgres.url, queue, harness, concurrency })
    const client = await createQueueClient({ redis: redis.url, queue })
    /** Submits a run whose task is its session's id, keeping its progress apart. */
    const run = (session: string) => {
      const events: RunProgress[] = []
      const submitted = client.submit({ session, task: session, onProgress: (e) => events.push(e) })
      return { session, events, submitted }
    }
    return { worker, client, run, close: async () => { await client.close(); await worker.close() } }
  }

  it('runs at once keep their sessions and their progress apart', async () => {
    const { run, close } = await start(2)
    const a = run(newSession('a'))
    const b = run(newSession('b'))
    await gate.whenStarted(`${a.session}-call`)
    await gate.whenStarted(`${b.session}-call`) // both runs are in their call at once
    gate.release(`${b.session}-call`, `for ${b.session}`)
    gate.release(`${a.session}-call`, `for ${a.session}`)
    const results = [(await a.submitted).result, (await b.submitted).result]
    await close()

    for (const [i, { session, events }] of [a, b].entries()) {
      expect(results[i]).toMatchObject({ kind: 'completed', text: `${session}: for ${session}` })
      const mine = stored(await sessionEntries(servers().admin, session))
      expect(mine).toEqual({ tasks: [session], calls: [`${session}-call`], codes: ['OK'], valid: [] })
      expect(events.map((e) => e.kind)).toEqual(['started', 'call-start', 'call-end', 'turn-end'])
      expect(events.flatMap((e) => 'id' in e ? [e.id] : [])).toEqual([`${session}-call`, `${session}-call`])
    }
  })

  it('cancelling one of two runs at once aborts that run alone', async () => {
    const { run, client, close } = await start(2)
    const a = run(newSession('a'))
    const b = run(newSession('b'))
    await Promise.all([gate.whenStarted(`${a.session}-call`), gate.whenStarted(`${b.session}-call`)])
    expect(await client.cancel(a.session)).toMatchObject({ kind: 'signalled', result: { kind: 'aborted' } })
    expect((await a.submitted).result).toMatchObject({ kind: 'aborted' })
    expect(gate.finished).toContain(`${a.session}-call`)
    expect(gate.finished).not.toContain(`${b.session}-call`) // b is still in its call
    gate.release(`${b.session}-call`, 'still here')
    expect((await b.submitted).result).toMatchObject({ kind: 'completed', text: `${b.session}: still here` })
    await close()

    expect(stored(await sessionEntries(servers().admin, a.session))).toMatchObject({ calls: [`${a.session}-call`], codes: ['ABORTED'], valid: [] })
    expect(stored(await sessionEntries(servers().admin, b.session))).toMatchObject({ calls: [`${b.session}-call`], codes: ['OK'], valid: [] })
  })
})

describeWithServers('approvals on a worker that asks (approvals: ask; permission-guard, default: ask)', (servers) => {
  const worker = async (harness: SharedHarness | HarnessFactory) => {
    const { redis, postgres } = servers()
    const queue = newQueue()
    const running = await createWorker({ redis: redis.url, postgres: postgres.url, queue, harness, concurrency: 2, approvals: 'ask' })
    const client = await createQueueClient({ redis: redis.url, queue })
    return {
      answer: async (session: string) => (await client.submit({ session, task: session })).result?.text,
      close: async () => { await client.close(); await running.close() },
    }
  }

  it('with nobody to ask, the call of every session is denied', async () => {
    const harness = await loadHarness(join(FIXTURES, 'guarded.yaml'))
    const { answer, close } = await worker(harness)
    const [a, b] = [newSession('a'), newSession('b')]
    expect(await answer(a)).toMatch(new RegExp(`^${a}: refused .*denied at approval`))
    expect(await answer(b)).toMatch(new RegExp(`^${b}: refused .*denied at approval`))
    await close()
    await harness.dispose()
    for (const session of [a, b]) expect(stored(await sessionEntries(servers().admin, session)).codes).toEqual(['TOOL_DENIED'])
  })

  it('a shared harness keeps an "allow-session" answer of the default to the call asked about; a harness per run shares none', async () => {
    const [a, b, c] = [newSession('a'), newSession('b'), newSession('c')]
    const file = join(FIXTURES, 'guarded-approver.yaml')
    const env = { REIN_APPROVE: a }

    const shared = await loadHarness(file, { env })
    const one = await worker(shared)
    expect(await one.answer(a)).toBe(`${a}: ok {"noted":"${a}"}`)
    // a's answer covers a's exact call only (the default asked), so b is asked, and refused.
    expect(await one.answer(b)).toMatch(new RegExp(`^${b}: refused .*denied at approval`))
    await one.close()
    await shared.dispose()

    const perRun = await worker((session) => loadHarness(file, { env, session }))
    expect(await perRun.answer(a)).toBe(`${a}: ok {"noted":"${a}"}`)
    expect(await perRun.answer(c)).toMatch(new RegExp(`^${c}: refused`))
    await perRun.close()
  })
})
