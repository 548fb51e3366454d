/** permission-guard with an agent that parks (DESIGN.md §7.2): recorded answers, allow-session per session, and the audit facts. */
import { answerApproval, createAgent, memorySession, type SessionEntry, type SessionStore } from '@rein/agent'
import { scripted } from '@rein/testing'
import { describe, expect, it } from 'vitest'
import { createPermissionGuard, type PermissionGuardInput } from '../src/index.js'
import { harness } from './helpers.js'

const bash = (id: string, command: string) => ({ id, name: 'bash', arguments: JSON.stringify({ command }) })
const POLICY: PermissionGuardInput = { default: 'allow', rules: [{ tool: 'bash', action: 'ask', when: { command: { shell: 'git push *' } } }] }

async function guardedHarness(asked: string[] = []) {
  const h = await harness()
  h.ctx.plugin(createPermissionGuard({ ask: ({ exec }) => { asked.push(String(exec.arguments.command)); return 'deny' } }), POLICY)
  await h.ctx.start()
  return h
}

const resultsOf = async (session: SessionStore) => (await session.load()).flatMap((e: SessionEntry) =>
  e.type === 'tool/result' ? [`${e.message.toolCallId}:${e.code ?? 'ok'}`] : [])

describe('permission-guard under an agent that parks', () => {
  it('parks instead of asking, and applies the answer written in the session, noting it for the audit', async () => {
    const asked: string[] = []
    const h = await guardedHarness(asked)
    const session = memorySession()
    const agent = createAgent(h.ctx, { provider: scripted([{ role: 'assistant', content: '', toolCalls: [bash('p', 'git push origin main')] }]), session, approvals: 'park' })
    const parked = await agent.run('go')
    expect(parked.approvals).toMatchObject([{ callId: 'p', tool: 'bash', arguments: { command: 'git push origin main' }, reason: expect.stringContaining('rules[0]') }])
    expect(asked).toEqual([])
    await answerApproval(session, parked.approvals![0].id, 'allow-once', { by: 'ana' })
    expect((await agent.run()).kind).toBe('completed')
    expect(h.ran).toEqual(['bash'])
    const result = (await session.load()).find((e) => e.type === 'tool/result') as Extract<SessionEntry, { type: 'tool/result' }>
    expect(result.meta?.approval).toMatchObject({ answer: 'allow-once', by: 'ana', id: parked.approvals![0].id })
  })

  it('keeps an allow-session answer in its session: later asks of the rule there pass, another session on the same harness parks', async () => {
    const h = await guardedHarness()
    const [a, b] = [memorySession(), memorySession()]
    const steps = (prefix: string) => [
      { role: 'assistant' as const, content: '', toolCalls: [bash(`${prefix}1`, 'git push origin main')] },
      { role: 'assistant' as const, content: '', toolCalls: [bash(`${prefix}2`, 'git push origin dev')] },
    ]
    const first = createAgent(h.ctx, { provider: scripted(steps('a')), session: a, approvals: 'park' })
    const parked = await first.run('go')
    await answerApproval(a, parked.approvals![0].id, 'allow-session')
    expect((await first.run()).kind).toBe('completed')
    expect(await resultsOf(a)).toEqual(['a1:ok', 'a2:ok'])

    const second = createAgent(h.ctx, { provider: scripted(steps('b')), session: b, approvals: 'park' })
    const other = await second.run('go')
    expect(other.kind).toBe('awaiting-approval')
    expect(other.approvals?.map((r) => r.callId)).toEqual(['b1'])
    expect(h.ran).toEqual(['bash', 'bash'])
  })

  it('continues a session in a new harness (another process): the allow-session answer is still there', async () => {
    const session = memorySession()
    const first = await guardedHarness()
    const agent = createAgent(first.ctx, { provider: scripted([{ role: 'assistant', content: '', toolCalls: [bash('p', 'git push a')] }]), session, approvals: 'park' })
    const parked = await agent.run('go')
    await answerApproval(session, parked.approvals![0].id, 'allow-session')
    await agent.run()
    const next = await guardedHarness()
    const later = createAgent(next.ctx, { provider: scripted([{ role: 'assistant', content: '', toolCalls: [bash('q', 'git push b')] }]), session, approvals: 'park' })
    expect((await later.run('again')).kind).toBe('completed')
    expect(next.ran).toEqual(['bash'])
  })
})
