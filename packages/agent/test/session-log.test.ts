import { describe, expect, it } from 'vitest'
import { createAgent, memorySession, type NewSessionEntry, type SessionEntry, type SessionStore } from '../src/index.js'
import { SessionLog } from '../src/session-log.js'
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

describe('SessionLog appends', () => {
  const user = (content: string): NewSessionEntry => ({ type: 'message', message: { role: 'user', content } })

  it('takes a memory session\'s entry in place: no promise, mirrored at once, stored once', async () => {
    const session = memorySession()
    const log = new SessionLog(session)
    await log.open()
    expect(log.add(user('a'))).toBeUndefined()
    expect(log.all.map((e) => e.seq)).toEqual([1])
    expect(await log.append(user('b'))).toMatchObject({ seq: 2 })
    expect((await session.load()).map((e) => e.seq)).toEqual([1, 2])
  })

  it('goes through a memory session\'s append once it was replaced (a wrapper sees every entry)', async () => {
    const session = memorySession()
    const seen: string[] = []
    const own = session.append.bind(session)
    session.append = (entry) => { seen.push(entry.type); return own(entry) }
    const log = new SessionLog(session)
    await log.open()
    const appended = log.add(user('a'))
    expect(appended).toBeInstanceOf(Promise)
    await appended
    expect(seen).toEqual(['message'])
  })

  it('shows an appended entry to the next model request before the store acknowledges it, never in the outcome\'s view, and drops it when it fails', async () => {
    const acks: (() => void)[] = []
    const fails: ((error: Error) => void)[] = []
    let seq = 0
    const session: SessionStore = {
      id: 'slow',
      load: async () => [],
      append: (entry) => new Promise((resolve, reject) => {
        acks.push(() => resolve({ ...entry, seq: ++seq } as SessionEntry))
        fails.push(reject)
      }),
    }
    const log = new SessionLog(session)
    await log.open()
    const first = log.add(user('a'))!
    expect(log.messages()).toEqual([])
    expect(log.messages(true)).toEqual([{ role: 'user', content: 'a' }])
    acks[0]!()
    await first
    expect(log.messages()).toEqual([{ role: 'user', content: 'a' }])
    const second = log.add(user('b'))!
    expect(log.messages(true)).toHaveLength(2)
    fails[1]!(new Error('the disk is full'))
    await expect(second).rejects.toThrow('the disk is full')
    expect(log.messages(true)).toEqual([{ role: 'user', content: 'a' }])
  })
})
