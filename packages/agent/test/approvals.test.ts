/** Durable approvals in the agent: a run parks, a person answers in the session, the run continues (DESIGN.md §7.2). */
import { appendFile, readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { APPROVAL_PARKED } from '@rein/kernel'
import { answerApproval, createAgent, jsonlSession, memorySession, pendingApprovals, type SessionEntry, type SessionStore } from '../src/index.js'
import { scripted } from '@rein/testing'
import { approvalHarness, answering, call } from './approval-harness.js'
import { outcomes, tempDir } from './helpers.js'

const kinds = (entries: SessionEntry[]) => entries.flatMap((e) =>
  e.type === 'tool/call' ? [`call ${e.call.id}`] : e.type === 'tool/result' ? [`result ${e.message.toolCallId}`]
    : e.type === 'approval/request' ? [`request ${e.callId}`] : e.type === 'approval/answer' ? [`answer ${e.answer}`] : [])

/** read a, then push p (asks), then read b behind push's barrier, then the model is asked again. */
const BATCH = [{ role: 'assistant' as const, content: '', toolCalls: [call('a', 'read', 1), call('p', 'push', 2), call('b', 'read', 3)] }]

async function parkedRun(session: SessionStore = memorySession(), options: { expires?: number } = {}) {
  const h = await approvalHarness()
  const provider = scripted(BATCH)
  const agent = createAgent(h.ctx, { provider, session, approvals: 'park', approvalExpiresAfterMs: options.expires })
  const outcome = await agent.run('go')
  return { h, agent, provider, session, outcome }
}

describe('a run that parks', () => {
  it('runs what it can, records one request per parked call, holds what waits behind it, and resolves awaiting-approval', async () => {
    const { h, session, outcome, provider } = await parkedRun()
    expect(outcome.kind).toBe('awaiting-approval')
    expect(outcome.approvals).toEqual([{ id: expect.stringMatching(/^apr_/), callId: 'p', tool: 'push', arguments: { x: 2 }, reason: 'push needs a person' }])
    expect(h.ledger).toEqual(['read:1'])
    expect(kinds(await session.load())).toEqual(['call a', 'result a', 'call p', 'request p'])
    expect(provider.requests).toHaveLength(1)
    expect(await pendingApprovals(session)).toMatchObject([{ id: outcome.approvals![0].id, callId: 'p', turn: 1, index: 1, expired: false }])
  })

  it('continues, after an allow-once answer, through the whole pipeline: push and the held call run once, the model is asked again', async () => {
    const { h, agent, session, outcome, provider } = await parkedRun()
    await answerApproval(session, outcome.approvals![0].id, 'allow-once', { by: 'ana' })
    const next = await agent.run()
    expect(next.kind).toBe('completed')
    expect(h.ledger).toEqual(['read:1', 'push:2', 'read:3'])
    expect(h.answers).toEqual(['p:recorded allow-once'])
    expect(outcomes(next.messages)).toEqual(['a:ok', 'p:ok', 'b:ok'])
    expect(provider.requests).toHaveLength(2)
    expect(await pendingApprovals(session)).toEqual([])
  })

  it('gives a deny answer TOOL_DENIED, and runs the rest of the batch', async () => {
    const { h, agent, session, outcome } = await parkedRun()
    await answerApproval(session, outcome.approvals![0].id, 'deny')
    const next = await agent.run()
    expect(outcomes(next.messages)).toEqual(['a:ok', 'p:Error: "push" was denied at approval (push needs a person)', 'b:ok'])
    expect(h.ledger).toEqual(['read:1', 'read:3'])
  })

  it('parks an unanswered call again under the same id, recording that it parked again', async () => {
    const { h, agent, session, outcome } = await parkedRun()
    const again = await agent.run()
    expect(again.kind).toBe('awaiting-approval')
    expect(again.approvals).toEqual(outcome.approvals)
    expect(kinds(await session.load())).toEqual(['call a', 'result a', 'call p', 'request p', 'call p', 'request p'])
    expect(h.ledger).toEqual(['read:1'])
  })

  it('refuses new input while it waits: an error outcome, nothing written', async () => {
    const { agent, session } = await parkedRun()
    const before = await session.load()
    const outcome = await agent.run('something else')
    expect(outcome.kind).toBe('error')
    expect(outcome.error?.message).toMatch(/awaits approval \(pending: apr_.*\).*answerApproval.*run\(\) and no input; nothing was written/)
    expect(await session.load()).toEqual(before)
  })

  it('refuses new input while it waits without changing a byte of its file, a torn last line included', async () => {
    const path = `${await tempDir('rein-approvals-')}/s.jsonl`
    const first = await parkedRun(jsonlSession(path))
    await first.session.close!()
    await appendFile(path, '{"seq":99,"type":"tool/ca')
    const before = await readFile(path)
    const h = await approvalHarness()
    const store = jsonlSession(path)
    const outcome = await createAgent(h.ctx, { provider: scripted([]), session: store, approvals: 'park' }).run('something else')
    await store.close!()
    expect(outcome.kind).toBe('error')
    expect(outcome.error?.message).toMatch(/awaits approval .*nothing was written/)
    expect(await readFile(path)).toEqual(before)
  })

  it('asks again, under a new id, when the rule that asked changed after the answer', async () => {
    const { h, agent, session, outcome } = await parkedRun()
    const first = outcome.approvals![0].id
    await answerApproval(session, first, 'allow-once')
    h.policy.rule = 'rule-2'
    const again = await agent.run()
    expect(again.kind).toBe('awaiting-approval')
    expect(again.approvals![0].id).not.toBe(first)
    expect(h.ledger).toEqual(['read:1'])
    await expect(answerApproval(session, first, 'allow-once')).rejects.toThrow(/already answered/)
    const pending = await pendingApprovals(session)
    expect(pending.map((p) => p.id)).toEqual([again.approvals![0].id])
  })

  it('in ask mode, a continuation asks the live asker what is unanswered', async () => {
    const session = memorySession()
    const { h } = await parkedRun(session)
    h.live.ask = answering({ p: 'allow-once' })
    const agent = createAgent(h.ctx, { provider: scripted([]), session })
    const next = await agent.run()
    expect(next.kind).toBe('completed')
    expect(h.live.asked).toEqual(['p'])
    expect(h.ledger).toEqual(['read:1', 'push:2', 'read:3'])
  })

  it('a live asker may park a call itself ("decide later")', async () => {
    const h = await approvalHarness()
    h.live.ask = () => 'park'
    const agent = createAgent(h.ctx, { provider: scripted(BATCH) })
    const outcome = await agent.run('go')
    expect(outcome.kind).toBe('awaiting-approval')
    expect(outcome.approvals?.map((a) => a.callId)).toEqual(['p'])
  })
})

describe('expiry', () => {
  it('refuses an answer after expiry, and the continuation denies the call saying it expired', async () => {
    const { h, agent, session, outcome } = await parkedRun(memorySession(), { expires: 60_000 })
    const [{ id, expiresAt }] = await pendingApprovals(session)
    await expect(answerApproval(session, id, 'allow-once', { now: expiresAt! + 1 })).rejects.toThrow(/expired at .*nothing was written/)
    expect((await pendingApprovals(session, { now: expiresAt! + 1 }))[0].expired).toBe(true)
    const realNow = Date.now
    Date.now = () => expiresAt! + 1
    let next
    try {
      next = await agent.run()
    } finally {
      Date.now = realNow
    }
    expect(outcomes(next.messages)[1]).toMatch(new RegExp(`^p:Error: "push" was denied: its approval request ${outcome.approvals![0].id} expired unanswered at `))
    expect(h.ledger).toEqual(['read:1', 'read:3'])
  })
})

describe('answerApproval', () => {
  it('rejects (never throws) an unknown id, a second answer, a bad answer or a bad "by", writing nothing', async () => {
    const { session, outcome } = await parkedRun()
    const id = outcome.approvals![0].id
    const before = (await session.load()).length
    const unknown = answerApproval(session, 'apr_nope', 'allow-once')
    await expect(unknown).rejects.toThrow('answerApproval: there is no approval request "apr_nope" in this session; nothing was written')
    await expect(answerApproval(session, id, 'yes' as never)).rejects.toThrow(/must be "allow-once", "allow-session" or "deny"/)
    await expect(answerApproval(session, id, 'deny', { by: 42 as never })).rejects.toThrow(/"by" must be a non-empty string/)
    expect((await session.load()).length).toBe(before)
    await answerApproval(session, id, 'allow-once', { by: 'ana' })
    await expect(answerApproval(session, id, 'deny')).rejects.toThrow(/already answered \(allow-once by ana\)/)
    expect((await session.load()).length).toBe(before + 1)
  })

  it('lets only one of two answers given at once through', async () => {
    const { session, outcome } = await parkedRun()
    const id = outcome.approvals![0].id
    const both = await Promise.allSettled([answerApproval(session, id, 'allow-once'), answerApproval(session, id, 'deny')])
    expect(both.map((r) => r.status)).toEqual(['fulfilled', 'rejected'])
  })

  it('refuses a request whose call already has a result', async () => {
    const { agent, session, outcome } = await parkedRun()
    const id = outcome.approvals![0].id
    await answerApproval(session, id, 'allow-once')
    await agent.run()
    // The answered request is settled; a forged second request would be refused by the log itself.
    await expect(answerApproval(session, id, 'allow-once')).rejects.toThrow(/already answered/)
  })
})

describe('across processes (JSONL)', () => {
  it('a parked session continues from a store opened afresh, and nothing that ran runs again', async () => {
    const dir = await tempDir('rein-approvals-')
    const path = `${dir}/s.jsonl`
    const first = await parkedRun(jsonlSession(path))
    await first.session.close!()
    const store = jsonlSession(path)
    const [pending] = await pendingApprovals(store)
    expect(pending.callId).toBe('p')
    await answerApproval(store, pending.id, 'allow-once', { by: 'ops' })
    const h = await approvalHarness()
    const agent = createAgent(h.ctx, { provider: scripted([]), session: store, approvals: 'park' })
    const next = await agent.run()
    expect(next.kind).toBe('completed')
    expect(h.ledger).toEqual(['push:2', 'read:3'])
    expect(first.h.ledger).toEqual(['read:1'])
    const entries = await store.load()
    expect(entries.filter((e) => e.type === 'turn/end').map((e) => (e as { outcome: string }).outcome)).toEqual(['committed'])
    expect(entries.some((e) => e.type === 'tool/result' && e.code === APPROVAL_PARKED)).toBe(false)
    await store.close!()
  })
})
