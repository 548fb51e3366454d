import { Context } from 'cordis'
import type { Provider } from '@rein/kernel'
import { describe, expect, it, vi } from 'vitest'
import { importAgentModule, lazyAgent, type AgentPlan } from '../src/agent.js'

const provider: Provider = { generate: async () => ({ role: 'assistant', content: 'ok' }) }

function plan(overrides: Partial<AgentPlan>): AgentPlan {
  return { ctx: new Context(), file: '/p/rein.yaml', builder: 'loadHarness', settings: {}, provider, session: undefined, sessionPath: undefined, module: {}, ...overrides }
}

describe('lazyAgent', () => {
  it('builds the agent once, on first use, with the provider and the agent section', () => {
    const agent = { run: vi.fn(), session: {}, dispose: vi.fn() }
    const createAgent = vi.fn((_ctx: unknown, _options: unknown) => agent as never)
    const lazy = lazyAgent(plan({ settings: { maxTurns: 3, system: 'be brief' }, module: { createAgent } }))
    expect(createAgent).not.toHaveBeenCalled()
    expect(lazy.get()).toBe(agent)
    expect(lazy.get()).toBe(agent)
    expect(createAgent).toHaveBeenCalledTimes(1)
    expect(createAgent.mock.calls[0]![1]).toEqual({ maxTurns: 3, system: 'be brief', provider })
  })

  it('opens the file session, and closes it (and removes the agent) on dispose', async () => {
    const close = vi.fn(async () => {})
    const store = { load: async () => [], append: async () => { throw new Error('unused') }, close }
    const jsonlSession = vi.fn(() => store)
    const agent = { run: vi.fn(), session: store, dispose: vi.fn() }
    const createAgent = vi.fn((_ctx: unknown, _options: unknown) => agent as never)
    const lazy = lazyAgent(plan({ sessionPath: '/p/runs/s.jsonl', module: { createAgent, jsonlSession } }))
    lazy.get()
    expect(jsonlSession).toHaveBeenCalledWith('/p/runs/s.jsonl')
    expect(createAgent.mock.calls[0]![1]).toMatchObject({ session: store })
    await lazy.dispose()
    expect(agent.dispose).toHaveBeenCalledTimes(1)
    expect(close).toHaveBeenCalledTimes(1)
  })

  it('says what is missing: a provider, or createAgent', () => {
    expect(() => lazyAgent(plan({ provider: undefined })).get()).toThrow('/p/rein.yaml: no provider: add a "provider: { use, config }" section')
    expect(() => lazyAgent(plan({ module: {} })).get()).toThrow('/p/rein.yaml: @rein/agent does not export createAgent(ctx, options)')
    expect(() => lazyAgent(plan({ module: new Error('boom') })).get()).toThrow('/p/rein.yaml: cannot import @rein/agent: boom')
  })

  it('imports the real @rein/agent', async () => {
    const module = await importAgentModule()
    expect(module).not.toBeInstanceOf(Error)
    expect(typeof (module as { createAgent?: unknown }).createAgent).toBe('function')
  })
})
