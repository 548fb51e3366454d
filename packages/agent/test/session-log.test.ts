import { describe, expect, it } from 'vitest'
import { createAgent, memorySession, type NewSessionEntry, type SessionEntry, type SessionStore } from '../src/index.js'
import { kernelContext, scriptedAgent } from './helpers.js'

/** A store whose `load` resolves `entries` as given, and which accepts no appends. */
const storeOf = (entries: unknown): SessionStore => ({
  id: 'given',
  load: async () => entries as SessionEntry[],
  append: async () => { throw new Error('not expected') },
})

describe('the agent loads any store through one check', () => {
  it('ends the run error when a memory session holds an entry that is not valid, asking the model nothing', async () => {
    const session = memorySession()
    await session.append({ type: 'message', message: { role: 'user', content: 'go' } })
    await session.append({ type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls: [null] } } as unknown as NewSessionEntry)
    const { agent, provider } = scriptedAgent(await kernelContext(), [], { session })
    const outcome = await agent.run('continue')
    expect(outcome).toMatchObject({ kind: 'error', messages: [] })
    expect(outcome.error?.message).toBe(
      'session entry 2 of 2, as the store loaded it: "message.toolCalls[0]" must be a tool call object with string "id" and "name", got null')
    expect(provider.requests).toHaveLength(0)
  })

  it('ends the run error when a store loads entries out of seq order', async () => {
    const entries = [
      { seq: 2, type: 'turn/end', turn: 1, outcome: 'committed' },
      { seq: 1, type: 'message', message: { role: 'user', content: 'go' } },
    ]
    const outcome = await scriptedAgent(await kernelContext(), [], { session: storeOf(entries) }).agent.run()
    expect(outcome.error?.message).toBe('session entry 2 of 2, as the store loaded it: "seq" is 1, expected 3 (one more than the entry before it)')
  })

  it('ends the run error when a store\'s load resolves something other than a list', async () => {
    const agent = createAgent(await kernelContext(), { provider: { generate: async () => ({ role: 'assistant', content: '' }) }, session: storeOf({}) })
    const outcome = await agent.run('go')
    expect(outcome).toMatchObject({ kind: 'error', messages: [] })
    expect(outcome.error?.message).toBe('the session store\'s load() did not resolve an array of entries')
  })
})
