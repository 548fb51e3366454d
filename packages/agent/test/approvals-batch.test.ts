/** Which calls of a batch run when one parks, what a continuation substitutes, and what repair leaves alone. */
import { describe, expect, it } from 'vitest'
import { scripted } from '@rein/testing'
import { TOOL_DENIED, TOOL_OUTCOME_UNKNOWN } from '@rein/kernel'
import {
  answerApproval, createAgent, memorySession, parseSessionLog, pendingApprovals, type NewSessionEntry, type SessionEntry, type SessionStore,
} from '../src/index.js'
import { approvalHarness, call } from './approval-harness.js'
import { outcomes } from './helpers.js'

const batch = (...calls: ReturnType<typeof call>[]) => [{ role: 'assistant' as const, content: '', toolCalls: calls }]

async function parkAndAllow(asks: string[], calls: ReturnType<typeof call>[]) {
  const h = await approvalHarness(asks)
  const session = memorySession()
  const agent = createAgent(h.ctx, { provider: scripted(batch(...calls)), session, approvals: 'park' })
  const parked = await agent.run('go')
  const before = [...h.ledger]
  for (const { id } of parked.approvals ?? []) await answerApproval(session, id, 'allow-once')
  const next = await agent.run()
  return { h, parked, before, next, session }
}

describe('a batch with a parked call', () => {
  it('runs parallel calls around a parked parallel call; holds the exclusive call after it and all behind that', async () => {
    const { parked, before, h, next } = await parkAndAllow(['note'], [
      call('r1', 'read', 1), call('n', 'note', 2), call('r2', 'read', 3), call('w', 'write', 4), call('r3', 'read', 5),
    ])
    expect(parked.approvals?.map((a) => a.callId)).toEqual(['n'])
    expect(before).toEqual(['read:1', 'read:3'])
    expect(h.ledger.slice(2)).toEqual(['note:2', 'write:4', 'read:5'])
    expect(outcomes(next.messages)).toEqual(['r1:ok', 'n:ok', 'r2:ok', 'w:ok', 'r3:ok'])
  })

  it('holds a call that references the parked one (and the calls behind its barrier), and substitutes the result after', async () => {
    const { before, h } = await parkAndAllow(['note'], [call('n', 'note', 'v'), call('r', 'read', 1), call('d', 'read', '${n.result.note}')])
    expect(before).toEqual(['read:1'])
    expect(h.ledger).toEqual(['read:1', 'note:"v"', 'read:"v"'])
  })

  it('keeps the value of a result a held call references, so the continuation can substitute it', async () => {
    const { before, h, session } = await parkAndAllow(['push'], [call('e', 'read', 7), call('p', 'push', 1), call('l', 'write', '${e.result.read}')])
    expect(before).toEqual(['read:7'])
    expect(h.ledger).toEqual(['read:7', 'push:1', 'write:7'])
    const kept = (await session.load()).find((e) => e.type === 'tool/result' && e.index === 0) as { value?: unknown }
    expect(kept.value).toEqual({ read: 7 })
  })

  it('parks every asking call it reaches, each with its own request', async () => {
    const { parked, before, h } = await parkAndAllow(['note'], [call('a', 'note', 1), call('b', 'note', 2), call('c', 'read', 3)])
    expect(parked.approvals?.map((a) => a.callId)).toEqual(['a', 'b'])
    expect(new Set(parked.approvals?.map((a) => a.id)).size).toBe(2)
    expect(before).toEqual(['read:3'])
    expect(h.ledger).toEqual(['read:3', 'note:1', 'note:2'])
  })
})

/** A session in which call p (push {x:2}) of turn 1 parked under `request`, after call a (read) ran. */
function parkedSession(request: Partial<NewSessionEntry> = {}, after: NewSessionEntry[] = []): NewSessionEntry[] {
  return [
    { type: 'message', message: { role: 'user', content: 'go' } },
    { type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls: [call('a', 'read', 1), call('p', 'push', 2), call('b', 'read', 3)] } },
    { type: 'tool/call', turn: 1, index: 0, call: { id: 'a', name: 'read', arguments: { x: 1 } } },
    { type: 'tool/result', turn: 1, index: 0, message: { role: 'tool', toolCallId: 'a', content: [{ type: 'text', text: '{"read":1}' }], isError: false } },
    { type: 'tool/call', turn: 1, index: 1, call: { id: 'p', name: 'push', arguments: { x: 2 } } },
    { type: 'approval/request', id: 'apr_1', turn: 1, index: 1, callId: 'p', tool: 'push', arguments: { x: 2 }, rule: 'rule-1', ...request } as NewSessionEntry,
    ...after,
  ]
}

async function storeOf(entries: NewSessionEntry[]): Promise<SessionStore> {
  const store = memorySession()
  for (const entry of entries) await store.append(entry)
  return store
}

const jsonl = (entries: NewSessionEntry[]) => entries.map((entry, i) => JSON.stringify({ ...entry, seq: i + 1 })).join('\n') + '\n'

describe('approval entries that are forged or damaged', () => {
  it.each([
    ['an answer to a request that does not exist', { type: 'approval/answer', id: 'apr_9', answer: 'allow-once', at: 1 }, 'there is no approval request "apr_9"'],
    ['a second answer', { type: 'approval/answer', id: 'apr_1', answer: 'deny', at: 2 }, 'is already answered (allow-once)'],
    ['an answer that is not one', { type: 'approval/answer', id: 'apr_1', answer: 'yes', at: 2 }, '"answer" must be "allow-once", "allow-session" or "deny"'],
    ['an answer without a time', { type: 'approval/answer', id: 'apr_1', answer: 'deny' }, '"at" is missing'],
    ['a request for a call no message made', { type: 'approval/request', id: 'apr_2', turn: 1, index: 2, callId: 'zz', tool: 'read', arguments: {}, rule: '' }, 'names call 2 of turn 1 as "zz"'],
    ['a request reusing an id', { type: 'approval/request', id: 'apr_1', turn: 1, index: 2, callId: 'b', tool: 'read', arguments: {}, rule: '' }, 'id "apr_1" is used twice'],
    ['a request with arguments that are not an object', { type: 'approval/request', id: 'apr_3', turn: 1, index: 2, callId: 'b', tool: 'read', arguments: 'x', rule: '' }, '"arguments" must be an object'],
    ['a request for a sub-call of another call', { type: 'approval/request', id: 'apr_4', turn: 1, index: 2, callId: 'b', tool: 'read', arguments: {}, rule: '', subCall: { id: 'a.1', tool: 'push', arguments: {} } }, 'names sub-call "a.1", which is not a sub-call of "b"'],
    ['a request whose sub-call is not one', { type: 'approval/request', id: 'apr_5', turn: 1, index: 2, callId: 'b', tool: 'read', arguments: {}, rule: '', subCall: { id: 'b.1' } }, '"subCall" must be an object { id, tool, arguments }'],
  ] as const)('refuses %s with <file>:<line>', (_what, bad, problem) => {
    const entries = parkedSession({}, [{ type: 'approval/answer', id: 'apr_1', answer: 'allow-once', at: 1 }, bad as unknown as NewSessionEntry])
    expect(() => parseSessionLog(jsonl(entries), 's.jsonl')).toThrow(`s.jsonl:8: `)
    expect(() => parseSessionLog(jsonl(entries), 's.jsonl')).toThrow(problem)
  })

  it('refuses an answer given after its request expired', () => {
    const entries = parkedSession({ expiresAt: 100 }, [{ type: 'approval/answer', id: 'apr_1', answer: 'allow-once', at: 101 }])
    expect(() => parseSessionLog(jsonl(entries), 's.jsonl')).toThrow(/^s\.jsonl:7: approval answer: approval request "apr_1" .*expired at/)
  })

  it('does not apply an answer to a request whose arguments are not the call\'s: the call parks again under a new id', async () => {
    const h = await approvalHarness()
    const store = await storeOf(parkedSession({ arguments: { x: 999 } }, [{ type: 'approval/answer', id: 'apr_1', answer: 'allow-once', at: Date.now() }]))
    const outcome = await createAgent(h.ctx, { provider: scripted([]), session: store, approvals: 'park' }).run()
    expect(outcome.kind).toBe('awaiting-approval')
    expect(outcome.approvals?.[0]).toMatchObject({ callId: 'p', arguments: { x: 2 } })
    expect(outcome.approvals?.[0].id).not.toBe('apr_1')
    expect(h.ledger).toEqual([])
  })

  it('a session whose store loads a forged entry ends the run error, naming the entry', async () => {
    const h = await approvalHarness()
    const store = memorySession()
    for (const entry of parkedSession({}, [{ type: 'approval/answer', id: 'apr_7', answer: 'allow-once', at: 1 }])) await store.append(entry)
    const outcome = await createAgent(h.ctx, { provider: scripted([]), session: store, approvals: 'park' }).run()
    expect(outcome.kind).toBe('error')
    expect(outcome.error?.message).toMatch(/^session entry 7 of 7, as the store loaded it: approval answer: there is no approval request "apr_7"/)
  })
})

describe('resume repair and a parked turn', () => {
  it('leaves the parked call and the call never started behind it alone', async () => {
    const h = await approvalHarness()
    const store = await storeOf(parkedSession())
    const outcome = await createAgent(h.ctx, { provider: scripted([]), session: store, approvals: 'park' }).run()
    expect(outcome.kind).toBe('awaiting-approval')
    const entries = await store.load()
    expect(entries.some((e: SessionEntry) => e.type === 'tool/result' && e.index > 0)).toBe(false)
    expect(entries.some((e: SessionEntry) => e.type === 'turn/end')).toBe(false)
    expect(await pendingApprovals(store)).toMatchObject([{ id: 'apr_1' }])
  })

  it('repairs a parked call whose continuation started and died: TOOL_OUTCOME_UNKNOWN, never run again; the rest continues', async () => {
    const h = await approvalHarness()
    const store = await storeOf(parkedSession({}, [
      { type: 'approval/answer', id: 'apr_1', answer: 'allow-once', at: Date.now() },
      { type: 'tool/call', turn: 1, index: 1, call: { id: 'p', name: 'push', arguments: { x: 2 } } },
    ]))
    const outcome = await createAgent(h.ctx, { provider: scripted([]), session: store, approvals: 'park' }).run()
    expect(outcome.kind).toBe('completed')
    expect(h.ledger).toEqual(['read:3'])
    const codes = (await store.load()).flatMap((e: SessionEntry) => e.type === 'tool/result' ? [`${e.message.toolCallId}:${e.code ?? 'ok'}`] : [])
    expect(codes).toEqual(['a:ok', `p:${TOOL_OUTCOME_UNKNOWN}`, 'b:ok'])
  })

  /** A session a process killed while p (push) was parked but before its request was written: p logged as started, nothing after. */
  const killedBeforeRequest = (): NewSessionEntry[] => parkedSession().slice(0, 5)

  it('never commits APPROVAL_PARKED for a call run again on resume: it records its request, and the run awaits approval', async () => {
    const h = await approvalHarness(['push'], { push: () => ({ ran: false }) })
    const store = await storeOf(killedBeforeRequest())
    const agent = createAgent(h.ctx, { provider: scripted([{ role: 'assistant', content: 'done' }]), session: store, approvals: 'park' })
    const outcome = await agent.run()
    expect(outcome.kind).toBe('awaiting-approval')
    expect(outcome.approvals).toMatchObject([{ callId: 'p', tool: 'push', arguments: { x: 2 } }])
    expect(h.ledger).toEqual([])
    const entries = await store.load()
    expect(entries.some((e: SessionEntry) => e.type === 'tool/result' && e.index > 0)).toBe(false)
    expect(entries.some((e: SessionEntry) => e.type === 'turn/end')).toBe(false)
    expect(await agent.run('something else')).toMatchObject({ kind: 'error' })
    await answerApproval(store, outcome.approvals![0].id, 'allow-once')
    expect((await agent.run()).kind).toBe('completed')
    expect(h.ledger).toEqual(['push:2', 'read:3'])
    const codes = (await store.load()).flatMap((e: SessionEntry) => e.type === 'tool/result' ? [`${e.message.toolCallId}:${e.code ?? 'ok'}`] : [])
    expect(codes).toEqual(['a:ok', 'p:ok', 'b:ok'])
  })

  it('denies such a call when its batch is not the session\'s last (nothing can continue it), never committing it as parked', async () => {
    const h = await approvalHarness(['push'], { push: () => ({ ran: false }) })
    const store = await storeOf([
      { type: 'message', message: { role: 'user', content: 'go' } },
      { type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls: [call('p', 'push', 2)] } },
      { type: 'tool/call', turn: 1, index: 0, call: { id: 'p', name: 'push', arguments: { x: 2 } } },
      { type: 'message', turn: 2, message: { role: 'assistant', content: '', toolCalls: [call('r', 'read', 1)] } },
      { type: 'tool/call', turn: 2, index: 0, call: { id: 'r', name: 'read', arguments: { x: 1 } } },
      { type: 'tool/result', turn: 2, index: 0, message: { role: 'tool', toolCallId: 'r', content: [{ type: 'text', text: '{"read":1}' }], isError: false } },
      { type: 'turn/end', turn: 2, outcome: 'committed' },
    ])
    const outcome = await createAgent(h.ctx, { provider: scripted([{ role: 'assistant', content: 'done' }]), session: store, approvals: 'park' }).run()
    expect(outcome.kind).toBe('completed')
    const p = (await store.load()).find((e: SessionEntry) => e.type === 'tool/result' && e.message.toolCallId === 'p') as { code?: string }
    expect(p.code).toBe(TOOL_DENIED)
    expect(h.ledger).toEqual([])
  })
})
