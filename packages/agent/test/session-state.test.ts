/**
 * Per-session plugin state (`exec.session.state`, DESIGN.md §7.1): written into the session as
 * `state` entries, seen at once in this process, durable before the call it belongs to
 * commits, continued by a resume on a store reopened later, and never seen by another session.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { PIPELINE_FAILED, defineTool, type Json, type SessionRef } from '@rein/kernel'
import { callMessage, textMessage, toolCall } from '@rein/testing'
import { jsonlSession, memorySession, stateOf, type SessionEntry, type SessionStore } from '../src/index.js'
import { kernelContext, scriptedAgent, tempDir } from './helpers.js'

/** A counter plugin: each call adds one to `count` of this session, and returns what it saw before. */
async function counting(): Promise<{ ctx: Context, sessions: (SessionRef | undefined)[] }> {
  const ctx = await kernelContext()
  const sessions: (SessionRef | undefined)[] = []
  ctx.plugin({
    name: 'counter', inject: ['tools'],
    apply: (c: Context) => c.on('tools/execute', (exec, next) => {
      sessions.push(exec.session)
      const state = exec.session?.state
      if (state) state.set('counter', 'count', ((state.get('counter', 'count') as number | undefined) ?? 0) + 1)
      return next()
    }),
  })
  await ctx.start()
  ctx.tools.register(defineTool({
    name: 'peek', description: 'the count so far', parameters: { type: 'object' }, isConcurrencySafe: () => true,
    execute: (_args, exec) => exec.session?.state?.get('counter', 'count') ?? null,
  }))
  return { ctx, sessions }
}

const peeks = (ids: string[]) => callMessage(ids.map((id) => toolCall(id, 'peek')))
const values = (entries: SessionEntry[]) => entries.flatMap((e) => (e.type === 'tool/result' ? [e.message.content[0]] : []))
  .map((block) => (block?.type === 'text' ? block.text : ''))
const stateEntries = (entries: SessionEntry[]) => entries.filter((e) => e.type === 'state')

describe('per-session plugin state', () => {
  it('puts the session (the store id and its state) on every call; a value set is seen at once, parallel calls included', async () => {
    const { ctx, sessions } = await counting()
    const { agent, session } = scriptedAgent(ctx, [peeks(['a', 'b', 'c']), peeks(['d']), textMessage('done')])
    expect((await agent.run('go')).kind).toBe('completed')
    expect(sessions.map((s) => s?.id)).toEqual([session.id, session.id, session.id, session.id])
    expect(values(await session.load())).toEqual(['1', '2', '3', '4'])
  })

  it('writes each value before the result of the call that set it, in the order the values were set', async () => {
    const { ctx } = await counting()
    const { agent, session } = scriptedAgent(ctx, [peeks(['a', 'b']), textMessage('done')])
    await agent.run('go')
    const entries = await session.load()
    const order = entries.flatMap((e) => e.type === 'state' ? [`state ${JSON.stringify(e.value)}`] : e.type === 'tool/result' ? [`result ${e.message.toolCallId}`] : [])
    expect(order.indexOf('state 1')).toBeLessThan(order.indexOf('result a'))
    expect(order.indexOf('state 2')).toBeLessThan(order.indexOf('result b'))
    expect(stateEntries(entries)).toEqual([
      expect.objectContaining({ type: 'state', plugin: 'counter', key: 'count', value: 1 }),
      expect.objectContaining({ type: 'state', plugin: 'counter', key: 'count', value: 2 }),
    ])
  })

  it('is continued by a resume on the store reopened (another process), where the latest value wins', async () => {
    const path = join(await tempDir('rein-state-'), 'session.jsonl')
    const first = await counting()
    const one = jsonlSession(path)
    await scriptedAgent(first.ctx, [peeks(['a', 'b']), textMessage('done')], { session: one }).agent.run('go')
    await one.close?.()
    const second = await counting()
    const two = jsonlSession(path)
    await scriptedAgent(second.ctx, [peeks(['c']), textMessage('done')], { session: two }).agent.run('again')
    await two.close?.()
    expect(second.sessions.map((s) => s?.id)).toEqual([path])
    const reread = jsonlSession(path)
    expect(values(await reread.load())).toEqual(['1', '2', '3'])
    expect(stateOf(await reread.load()).get('counter')?.get('count')).toBe(3)
    await reread.close?.()
  })

  it('is never seen by another session on the same harness', async () => {
    const { ctx } = await counting()
    const a = scriptedAgent(ctx, [peeks(['a1', 'a2']), textMessage('done')])
    const b = scriptedAgent(ctx, [peeks(['b1']), textMessage('done')])
    await Promise.all([a.agent.run('go'), b.agent.run('go')])
    expect(a.session.id).not.toBe(b.session.id)
    expect(values(await a.session.load())).toEqual(['1', '2'])
    expect(values(await b.session.load())).toEqual(['1'])
  })

  it('keeps each plugin\'s keys apart, and hands out frozen values', async () => {
    const ctx = await kernelContext()
    const seen: unknown[] = []
    for (const plugin of ['one', 'two']) {
      ctx.plugin({
        name: plugin, inject: ['tools'],
        apply: (c: Context) => c.on('tools/execute', (exec, next) => {
          exec.session!.state!.set(plugin, 'k', { by: plugin })
          return next()
        }),
      })
    }
    await ctx.start()
    ctx.tools.register(defineTool({
      name: 'look', description: '', parameters: { type: 'object' },
      execute: (_args, exec) => {
        const state = exec.session!.state!
        seen.push(state.get('one', 'k'), state.get('two', 'k'), Object.isFrozen(state.get('one', 'k')))
        return null
      },
    }))
    await scriptedAgent(ctx, [callMessage([toolCall('c', 'look')]), textMessage('done')]).agent.run('go')
    expect(seen).toEqual([{ by: 'one' }, { by: 'two' }, true])
  })

  it('refuses a value that is not JSON: the call fails PIPELINE_FAILED naming the plugin, nothing is written', async () => {
    const ctx = await kernelContext()
    ctx.plugin({
      name: 'sloppy', inject: ['tools'],
      apply: (c: Context) => c.on('tools/execute', (exec, next) => {
        exec.session!.state!.set('sloppy', 'when', new Date() as unknown as Json)
        return next()
      }),
    })
    await ctx.start()
    ctx.tools.register(defineTool({ name: 'noop', description: '', parameters: { type: 'object' }, execute: () => null }))
    const { agent, session } = scriptedAgent(ctx, [callMessage([toolCall('c', 'noop')]), textMessage('done')])
    await agent.run('go')
    const entries = await session.load()
    expect(stateEntries(entries)).toEqual([])
    const result = entries.find((e) => e.type === 'tool/result')
    expect(result).toMatchObject({ code: PIPELINE_FAILED })
    expect(values(entries)[0]).toMatch(/plugin "sloppy".*not JSON/)
  })

  it('a value that cannot be stored fails the run: the call that set it never commits', async () => {
    const { ctx } = await counting()
    const inner = memorySession()
    const store: SessionStore = {
      id: inner.id,
      load: () => inner.load(),
      append: (entry) => (entry.type === 'state' ? Promise.reject(new Error('ENOSPC: no space left on device')) : inner.append(entry)),
    }
    const { agent } = scriptedAgent(ctx, [peeks(['a']), textMessage('done')], { session: store })
    const outcome = await agent.run('go')
    expect(outcome.kind).toBe('error')
    expect(outcome.error?.message).toMatch(/session state could not be stored.*ENOSPC/)
    expect((await inner.load()).filter((e) => e.type === 'tool/result')).toEqual([])
  })

  it('gives a direct ctx.tools.execute without a session nowhere to keep state', async () => {
    const { ctx, sessions } = await counting()
    const result = await ctx.tools.execute({ id: 'x', name: 'peek', arguments: {} })
    expect(result).toMatchObject({ isError: false, value: null })
    expect(sessions).toEqual([undefined])
  })

  it('is refused a store without an id: createAgent names what is missing', async () => {
    const ctx = await kernelContext()
    const inner = memorySession()
    const store = { load: () => inner.load(), append: inner.append } as unknown as SessionStore
    expect(() => scriptedAgent(ctx, [], { session: store }))
      .toThrow('createAgent(ctx, options): options.session.id must be a non-empty string naming the session (the same in every process that opens it)')
  })

  it('gives every memorySession() an id of its own', () => {
    const ids = new Set(Array.from({ length: 50 }, () => memorySession().id))
    expect(ids.size).toBe(50)
  })
})
