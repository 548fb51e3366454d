import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import type { Provider } from '@rein/kernel'
import { describe, expect, it, vi } from 'vitest'
import * as agentModule from '@rein/agent'
import { importAgentModule, lazyAgent, type AgentPlan } from '../src/agent.js'
import { project } from './helpers.js'

async function plan(overrides: Partial<AgentPlan>, generate = vi.fn(async () => ({ role: 'assistant' as const, content: 'ok' }))): Promise<AgentPlan> {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  const provider: Provider = { generate }
  return { ctx, file: '/p/rein.yaml', builder: 'loadHarness', settings: {}, provider, session: undefined, sessionPath: undefined, module: agentModule, ...overrides }
}

describe('lazyAgent', () => {
  it('builds the agent once, on first use, with the provider and the agent section', async () => {
    const generate = vi.fn(async () => ({ role: 'assistant' as const, content: 'ok' }))
    const lazy = lazyAgent(await plan({ settings: { maxTurns: 3, system: 'be brief' } }, generate))
    const agent = lazy.get()
    expect(lazy.get()).toBe(agent)
    const outcome = await agent.run('hello')
    expect(outcome.kind).toBe('completed')
    expect(generate).toHaveBeenCalledTimes(1)
    expect((generate.mock.calls[0] as unknown as [{ messages: unknown[] }])[0].messages.slice(0, 2))
      .toEqual([{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hello' }])
  })

  it('with redactSession, stores what a tool printed redacted, whoever opened the session', async () => {
    const token = 'ghp_0123456789abcdefghijABCDEFGHIJ'
    const generate = vi.fn(async () => ({ role: 'assistant' as const, content: `the token is ${token} and corp-deadbeef` }))
    const dir = await project({})
    const path = join(dir, 'runs', 's.jsonl')
    const lazy = lazyAgent(await plan({ sessionPath: path, settings: { maxTurns: 2, redactSession: ['corp-[0-9a-f]{8}'] } }, generate))
    expect((await lazy.get().run(`use Authorization: Bearer ${token}`)).kind).toBe('completed')
    await lazy.dispose()
    const text = await readFile(path, 'utf8')
    expect(text).not.toContain(token)
    expect(text).not.toContain('deadbeef')
    expect(text).toContain('the token is [REDACTED] and [REDACTED]')
    const stored = agentModule.memorySession()
    const other = lazyAgent(await plan({ settings: { redactSession: true } }, generate))
    await other.forSession(stored).run('go')
    expect(JSON.stringify(await stored.load())).not.toContain(token)
    await other.dispose()
  })

  it('hands approvals and approvalExpiresAfterMs to the agent: an ask parks', async () => {
    const generate = vi.fn(async () => ({ role: 'assistant' as const, content: '', toolCalls: [{ id: 'c1', name: 'nope', arguments: '{}' }] }))
    const p = await plan({ settings: { approvals: 'park', approvalExpiresAfterMs: 60_000 } }, generate)
    p.ctx.tools.register(kernel.defineTool({ name: 'nope', description: 'x', parameters: { type: 'object' }, execute: () => 'ran' }))
    p.ctx.on('tools/pre-execute', async () => ({ kind: 'ask' }))
    p.ctx.set('approval', { request: async () => 'park' })
    const session = agentModule.memorySession()
    const outcome = await lazyAgent(p).forSession(session).run('go')
    expect(outcome.kind).toBe('awaiting-approval')
    const [pending] = await agentModule.pendingApprovals(session)
    expect(pending.expiresAt! - pending.requestedAt!).toBe(60_000)
  })

  it('opens the file session, and closes it on dispose', async () => {
    const dir = await project({})
    const path = join(dir, 'runs', 's.jsonl')
    const lazy = lazyAgent(await plan({ sessionPath: path }))
    await lazy.get().run('hello')
    expect((await readFile(path, 'utf8')).split('\n').filter(Boolean).length).toBeGreaterThan(1)
    await lazy.dispose()
  })

  it('says what is missing: a provider', async () => {
    const lazy = lazyAgent(await plan({ provider: undefined }))
    expect(() => lazy.get()).toThrow('/p/rein.yaml: no provider: add a "provider: { use, config }" section')
  })

  it('builds no agent for a harness loaded inspectOnly, and says why', async () => {
    const lazy = lazyAgent(await plan({ inspectOnly: true, module: undefined }))
    const message = '/p/rein.yaml: the harness was loaded with { inspectOnly: true }, which builds no agent'
    expect(() => lazy.get()).toThrow(message)
    expect(() => lazy.forSession(agentModule.memorySession())).toThrow(message)
  })
})

describe('importAgentModule', () => {
  const provider: Provider = { generate: async () => ({ role: 'assistant', content: 'ok' }) }

  it('gives createAgent, jsonlSession and redactedSession when an agent can be built', async () => {
    expect(await importAgentModule(provider, false)).toEqual({ createAgent: agentModule.createAgent, jsonlSession: agentModule.jsonlSession, redactedSession: agentModule.redactedSession })
  })

  it('gives nothing without a provider or for an inspectOnly harness', async () => {
    expect(await importAgentModule(undefined, false)).toBeUndefined()
    expect(await importAgentModule(provider, true)).toBeUndefined()
  })
})
