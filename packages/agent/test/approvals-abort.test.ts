/**
 * An abort and a parked call (DESIGN.md §7.2, docs/approvals.md): the run ends `aborted`, not
 * `awaiting-approval`; the parked call stays parked, its request answerable, and a later
 * `agent.run()` continues it. Every abort here is triggered by the event it follows.
 */
import { describe, expect, it } from 'vitest'
import { ABORTED, ABORTED_BEFORE_DISPATCH, APPROVAL_PARKED } from '@rein/kernel'
import { createGate, scripted } from '@rein/testing'
import { answerApproval, createAgent, memorySession, pendingApprovals, type SessionEntry, type SessionStore } from '../src/index.js'
import { approvalHarness, call } from './approval-harness.js'
import { outcomes } from './helpers.js'

/** `id:code` (or `id:ok`) of every result in the session, and the calls with a request, in log order. */
async function logOf(session: SessionStore) {
  const entries: SessionEntry[] = await session.load()
  return {
    results: entries.flatMap((e) => e.type === 'tool/result' ? [`${e.message.toolCallId}:${e.code ?? 'ok'}`] : []),
    requests: entries.flatMap((e) => e.type === 'approval/request' ? [e.callId] : []),
  }
}

describe('an abort while a call is parked', () => {
  it('ends the run aborted, lists the parked call, and leaves its request answerable for a later run()', async () => {
    // `note` asks (and is parallel); `slow` is still running when `note` parks; `push` waits behind both.
    const h = await approvalHarness(['note'])
    const gate = createGate()
    h.ctx.tools.register(gate.tool('slow'))
    const controller = new AbortController()
    h.ctx.on('agent/call-end', (event) => {
      if (event.code !== APPROVAL_PARKED) return
      controller.abort()
      gate.release('s')
    })
    const session = memorySession()
    const provider = scripted([
      { role: 'assistant', content: '', toolCalls: [call('s', 'slow'), call('n', 'note', 1), call('q', 'push', 2)] },
      { role: 'assistant', content: 'done' },
    ])
    const agent = createAgent(h.ctx, { provider, session, approvals: 'park' })
    const outcome = await agent.run('go', { signal: controller.signal })

    expect(outcome.kind).toBe('aborted')
    expect(outcome.approvals).toEqual([{ id: expect.stringMatching(/^apr_/), callId: 'n', tool: 'note', arguments: { x: 1 }, reason: 'note needs a person' }])
    expect(await logOf(session)).toEqual({ results: [`s:${ABORTED}`, `q:${ABORTED_BEFORE_DISPATCH}`], requests: ['n'] })
    expect(h.ledger).toEqual([])
    expect(await pendingApprovals(session)).toMatchObject([{ id: outcome.approvals![0]!.id, callId: 'n' }])

    await answerApproval(session, outcome.approvals![0]!.id, 'allow-once')
    const next = await agent.run()
    expect(next.kind).toBe('completed')
    expect(h.ledger).toEqual(['note:1'])
    expect(outcomes(next.messages)).toEqual([
      's:Error: tool call aborted', 'n:ok', 'q:Error: tool call aborted before dispatch',
    ])
    expect(provider.requests).toHaveLength(2)
  })
})

describe('a continuation aborted before it starts', () => {
  /** read a, push p (asks, parks), read b held behind p; then the continuation is given an aborted signal. */
  async function parkedThenAborted(answer?: 'allow-once') {
    const h = await approvalHarness()
    const session = memorySession()
    const provider = scripted([
      { role: 'assistant', content: '', toolCalls: [call('a', 'read', 1), call('p', 'push', 2), call('b', 'read', 3)] },
      { role: 'assistant', content: 'done' },
    ])
    const agent = createAgent(h.ctx, { provider, session, approvals: 'park' })
    const parked = await agent.run('go')
    expect(parked.kind).toBe('awaiting-approval')
    const id = parked.approvals![0]!.id
    if (answer) await answerApproval(session, id, answer)
    const controller = new AbortController()
    controller.abort()
    const aborted = await agent.run(undefined, { signal: controller.signal })
    return { h, agent, session, provider, id, aborted }
  }

  it('ends aborted, runs nothing, and keeps the unanswered request standing under its id', async () => {
    const { h, agent, session, provider, id, aborted } = await parkedThenAborted()
    expect(aborted.kind).toBe('aborted')
    expect(aborted.approvals?.map((parked) => parked.id)).toEqual([id])
    expect(h.ledger).toEqual(['read:1'])
    expect(await logOf(session)).toEqual({ results: ['a:ok', `b:${ABORTED_BEFORE_DISPATCH}`], requests: ['p'] })
    expect(await pendingApprovals(session)).toMatchObject([{ id, callId: 'p', expired: false }])

    await answerApproval(session, id, 'allow-once')
    const next = await agent.run()
    expect(next.kind).toBe('completed')
    expect(h.ledger).toEqual(['read:1', 'push:2'])
    expect(provider.requests).toHaveLength(2)
  })

  it('keeps an answered call that had not started parked with its answer: the next run() runs it once', async () => {
    const { h, agent, session, aborted } = await parkedThenAborted('allow-once')
    expect(aborted.kind).toBe('aborted')
    expect(aborted.approvals).toEqual([])
    expect(h.ledger).toEqual(['read:1'])
    expect(await pendingApprovals(session)).toEqual([])

    const next = await agent.run()
    expect(next.kind).toBe('completed')
    expect(h.ledger).toEqual(['read:1', 'push:2'])
    expect(outcomes(next.messages)).toEqual(['a:ok', 'p:ok', 'b:Error: tool call aborted before dispatch'])
  })
})
