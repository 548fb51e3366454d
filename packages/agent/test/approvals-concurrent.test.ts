/**
 * Approvals and runs that overlap: an answer given while a continuation of the session runs in
 * this process, and a run on a session that another store parked since this agent last read it.
 * Whatever the order, the session stays readable and a session awaiting approval takes no input.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scripted } from '@rein/testing'
import { answerApproval, createAgent, jsonlSession, memorySession, pendingApprovals, readSession, type SessionStore } from '../src/index.js'
import { approvalHarness, call } from './approval-harness.js'
import { tempDir } from './helpers.js'

/** A promise with its resolve at hand. */
function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => { resolve = r })
  return { promise, resolve }
}

/** Two parallel `note` calls that ask, c0 and c1, parked in a JSONL session; c0 answered allow-once; c0's body held once it starts. */
async function twoParked() {
  const h = await approvalHarness(['note'])
  const path = join(await tempDir('rein-overlap-'), 's.jsonl')
  const session = jsonlSession(path)
  const batch = { role: 'assistant' as const, content: '', toolCalls: [call('c0', 'note', 0), call('c1', 'note', 1)] }
  const agent = createAgent(h.ctx, { provider: scripted([batch, { role: 'assistant', content: 'done' }]), session, approvals: 'park' })
  const parked = await agent.run('go')
  expect(parked.approvals?.map((a) => a.callId)).toEqual(['c0', 'c1'])
  const [c0, c1] = parked.approvals!.map((a) => a.id)
  await answerApproval(session, c0, 'allow-once')
  const bodyStarted = deferred()
  const release = deferred()
  h.hold = (id) => {
    if (id !== 'c0') return undefined
    bodyStarted.resolve()
    return release.promise
  }
  return { h, agent, session, path, c1, bodyStarted, release }
}

describe('an answer given while a run of this process continues the session', () => {
  it('is refused, writing nothing, saying to answer after the run; the session stays readable and continues', async () => {
    const { h, agent, session, path, c1, bodyStarted, release } = await twoParked()
    const running = agent.run()
    await bodyStarted.promise
    const before = (await readSession(path)).entries.length
    const refused = answerApproval(agent.session, c1, 'allow-once')
    await expect(refused).rejects.toThrow(/^answerApproval: session .* is in use by a run of this process .*answer after that run returns.*nothing was written$/)
    await expect(refused).rejects.toMatchObject({ code: 'SESSION_LOCKED' })
    expect((await readSession(path)).entries.length).toBe(before)
    release.resolve()
    const outcome = await running
    expect(outcome.kind).toBe('awaiting-approval')
    expect(outcome.approvals?.map((a) => a.id)).toEqual([c1])
    // Answered once the run returned, the session goes on: every body ran once.
    await answerApproval(agent.session, c1, 'allow-once')
    expect((await agent.run()).kind).toBe('completed')
    expect(h.ran).toEqual(['c0', 'c1'])
    expect(await pendingApprovals(session)).toEqual([])
    await session.close!()
    expect((await readSession(path)).entries.length).toBeGreaterThan(0)
  })

  it('is accepted again once the run returned, whatever the run ended with', async () => {
    const { agent, session, c1, release } = await twoParked()
    release.resolve()
    expect((await agent.run()).kind).toBe('awaiting-approval')
    await expect(answerApproval(session, c1, 'deny')).resolves.toMatchObject({ type: 'approval/answer', id: c1 })
    await session.close!()
  })

  it('written behind the run\'s back (straight into the store) is not followed by a second record of its request: the store refuses that one', async () => {
    const { agent, session, path, c1, bodyStarted, release } = await twoParked()
    const running = agent.run()
    await bodyStarted.promise
    await session.append({ type: 'approval/answer', id: c1, answer: 'allow-once', at: Date.now() })
    release.resolve()
    const outcome = await running
    expect(outcome.kind).toBe('error')
    expect(outcome.error?.message).toMatch(/approval request id ".*" is used twice/)
    await session.close!()
    // The file still reads, and the session goes on in a new store.
    await readSession(path)
    const h2 = await approvalHarness(['note'])
    const next = createAgent(h2.ctx, { provider: scripted([{ role: 'assistant', content: 'done' }]), session: jsonlSession(path), approvals: 'park' })
    expect((await next.run()).kind).toBe('completed')
    await (next.session as SessionStore).close!()
  })
})

describe('a run with input on a session another store parked since this agent read it', () => {
  const question = { role: 'assistant' as const, content: 'answered' }
  const parking = { role: 'assistant' as const, content: '', toolCalls: [call('p', 'push', 1)] }

  it('(JSONL, the first store closed meanwhile) is an error outcome and writes nothing', async () => {
    const path = join(await tempDir('rein-stale-'), 's.jsonl')
    const a = await approvalHarness()
    const storeA = jsonlSession(path)
    const agentA = createAgent(a.ctx, { provider: scripted([question, question]), session: storeA, approvals: 'park' })
    expect((await agentA.run('first question')).kind).toBe('completed')
    await storeA.close!()
    const b = await approvalHarness()
    const storeB = jsonlSession(path)
    const parked = await createAgent(b.ctx, { provider: scripted([parking]), session: storeB, approvals: 'park' }).run('push it')
    expect(parked.kind).toBe('awaiting-approval')
    await storeB.close!()
    const before = await readFile(path, 'utf8')
    const outcome = await agentA.run('another question')
    expect(outcome.kind).toBe('error')
    expect(outcome.error?.message).toMatch(new RegExp(`awaits approval \\(pending: ${parked.approvals![0].id}\\).*nothing was written`))
    await storeA.close!()
    expect(await readFile(path, 'utf8')).toBe(before)
    expect((await agentA.run()).kind).toBe('awaiting-approval')
    await storeA.close!()
  })

  it('(one memory store, two agents) is an error outcome and writes nothing', async () => {
    const session = memorySession()
    const a = await approvalHarness()
    const agentA = createAgent(a.ctx, { provider: scripted([question, question]), session, approvals: 'park' })
    expect((await agentA.run('first question')).kind).toBe('completed')
    const b = await approvalHarness()
    expect((await createAgent(b.ctx, { provider: scripted([parking]), session, approvals: 'park' }).run('push it')).kind).toBe('awaiting-approval')
    const before = await session.load()
    expect((await agentA.run('another question')).kind).toBe('error')
    expect(await session.load()).toEqual(before)
  })

  it('is not read again when only this agent wrote to it since', async () => {
    const path = join(await tempDir('rein-stale-'), 's.jsonl')
    const h = await approvalHarness()
    const store = jsonlSession(path)
    let loads = 0
    const load = store.load.bind(store)
    store.load = () => { loads++; return load() }
    const agent = createAgent(h.ctx, { provider: scripted([question, question, question]), session: store })
    for (const input of ['one', 'two', 'three']) expect((await agent.run(input)).kind).toBe('completed')
    expect(loads).toBe(1)
    await store.close!()
  })
})
