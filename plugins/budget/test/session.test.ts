/**
 * Counts live in the session (DESIGN.md §7.1): a resume in another process continues them,
 * another session starts from zero, a call without a session is not counted, and each call
 * counts once (parallel calls, a retried call, a call run again under the same key).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BUDGET_EXCEEDED, defineTool } from '@rein/kernel'
import { jsonlSession, memorySession } from '@rein/agent'
import * as retry from '@rein/plugin-retry'
import { callMessage, textMessage, toolCall } from '@rein/testing'
import { readCounts, STATE_KEY, STATE_PLUGIN } from '../src/index.js'
import { COUNTED_PER_TURN, COUNTED_WITHOUT_TURN } from '../src/counts.js'
import { code, harness, mapState, results, runAgent, tempDir } from './helpers.js'

const reads = (...ids: string[]) => callMessage(ids.map((id) => toolCall(id, 'read', { id })))

describe('counts kept in the session', () => {
  it('are continued by a resume in another process (a new harness on the reopened JSONL session)', async () => {
    const path = join(await tempDir(), 'session.jsonl')
    const first = await harness({ maxCalls: 3 })
    const one = jsonlSession(path)
    await runAgent(first.ctx, [reads('a', 'b'), textMessage('done')], one)
    await one.close?.()
    const second = await harness({ maxCalls: 3 })
    const two = jsonlSession(path)
    await runAgent(second.ctx, [reads('c', 'd'), textMessage('done')], two, 'more')
    expect(await results(two)).toEqual(['a:ok', 'b:ok', 'c:ok', `d:${BUDGET_EXCEEDED}`])
    expect(second.ran).toEqual(['c'])
    await two.close?.()
  })

  it('start from zero in another session on the same harness', async () => {
    const { ctx } = await harness({ maxCalls: 2 })
    const [one, two] = await Promise.all([
      runAgent(ctx, [reads('a', 'b', 'c'), textMessage('done')]),
      runAgent(ctx, [reads('x', 'y'), textMessage('done')]),
    ])
    expect(await results(one.session)).toEqual(['a:ok', 'b:ok', `c:${BUDGET_EXCEEDED}`])
    expect(await results(two.session)).toEqual(['x:ok', 'y:ok'])
  })

  it('are not kept for a call without a session: it runs uncounted', async () => {
    const { ctx, ran } = await harness({ maxCalls: 0 })
    expect(code(await ctx.tools.execute({ id: 'a', name: 'read', arguments: {} }))).toBe('ok')
    expect(code(await ctx.tools.execute({ id: 'b', name: 'read', arguments: {} }, { session: { id: 'no-state' } }))).toBe('ok')
    expect(ran).toEqual(['a', 'b'])
  })

  it('lose nothing when the calls of a batch run in parallel', async () => {
    const { ctx } = await harness({ repeat: 0 })
    const session = memorySession()
    const ids = Array.from({ length: 12 }, (_, i) => `r${i}`)
    await runAgent(ctx, [reads(...ids), textMessage('done')], session)
    const entries = (await session.load()).filter((e) => e.type === 'state')
    expect(entries.at(-1)).toMatchObject({ plugin: 'budget', key: 'counts', value: { calls: 12, perTool: { read: 12 } } })
  })

  it('count a call run again under the same idempotency key (a resumed call re-run) once', async () => {
    const { ctx, ran } = await harness({ maxCalls: 1 })
    const state = mapState()
    const options = { session: { id: 's', state }, turn: 1 }
    const call = { id: 'c1', name: 'pay', arguments: {} }
    expect(code(await ctx.tools.execute(call, options))).toBe('ok')
    expect(code(await ctx.tools.execute(call, options))).toBe('ok')
    expect(code(await ctx.tools.execute({ ...call, id: 'c2' }, options))).toBe(BUDGET_EXCEEDED)
    expect(ran).toEqual(['c1', 'c1'])
    expect(readCounts(state)).toMatchObject({ calls: 2, turn: 1 })
  })

  it('stay small over 2,000 calls without a turn, and the latest call run again still counts once', async () => {
    const { ctx } = await harness({ repeat: 0 })
    const state = mapState()
    const options = { session: { id: 's', state } }
    for (let i = 0; i < 2000; i++) await ctx.tools.execute({ id: `c${i}`, name: 'read', arguments: { i } }, options)
    expect(JSON.stringify(state.get(STATE_PLUGIN, STATE_KEY)).length).toBeLessThan(8_000)
    expect(readCounts(state)).toMatchObject({ calls: 2000, turn: null })
    expect(readCounts(state).counted).toHaveLength(COUNTED_WITHOUT_TURN)
    expect(code(await ctx.tools.execute({ id: 'c1999', name: 'read', arguments: { i: 1999 } }, options))).toBe('ok')
    expect(readCounts(state).calls).toBe(2000)
  })

  it('stay small over 2,000 calls in one turn, and the latest calls run again still count once', async () => {
    const { ctx } = await harness({ repeat: 0 })
    const state = mapState()
    const options = { session: { id: 's', state }, turn: 1 }
    let largest = 0
    for (let i = 0; i < 2000; i++) {
      await ctx.tools.execute({ id: `c${i}`, name: 'read', arguments: { i } }, options)
      largest = Math.max(largest, JSON.stringify(state.get(STATE_PLUGIN, STATE_KEY)).length)
    }
    // Each write is bounded: 256 keys of 16 characters, not every key of the turn.
    expect(largest).toBeLessThan(8_000)
    expect(readCounts(state)).toMatchObject({ calls: 2000, turn: 1 })
    expect(readCounts(state).counted).toHaveLength(COUNTED_PER_TURN)
    for (const i of [1999, 1999 - COUNTED_PER_TURN + 1]) {
      expect(code(await ctx.tools.execute({ id: `c${i}`, name: 'read', arguments: { i } }, options))).toBe('ok')
    }
    expect(readCounts(state).calls).toBe(2000)
  })

  it('are read from a hostile stored value as own counts only, with its keys bounded', () => {
    const state = mapState()
    const keys = Array.from({ length: 500 }, (_, i) => `k${i}`)
    state.set(STATE_PLUGIN, STATE_KEY, JSON.parse(`{"calls":3,"perTool":{"__proto__":2,"toString":"x","read":-1},"turn":null,"counted":${JSON.stringify(keys)}}`))
    const counts = readCounts(state)
    expect(Object.getPrototypeOf(counts.perTool)).toBeNull()
    expect(Object.entries(counts.perTool)).toEqual([['__proto__', 2], ['toString', 0], ['read', 0]])
    expect(counts.perTool.constructor).toBeUndefined()
    expect(counts.counted).toEqual(keys.slice(-COUNTED_WITHOUT_TURN))
  })

  it('count a call once however often retry, listed inside budget, runs it', async () => {
    let failures = 1
    const { ctx } = await harness({ maxCalls: 5 }, { after: (c) => c.plugin(retry.createRetry({ sleep: async () => {} }), { maxAttempts: 3 }) })
    ctx.tools.register(defineTool({
      name: 'flaky', description: 'fails once', parameters: { type: 'object' }, idempotent: true,
      execute: () => { if (failures-- > 0) throw Object.assign(new Error('reset'), { code: 'ECONNRESET' }); return 'ok' },
    }))
    const { session } = await runAgent(ctx, [callMessage([toolCall('f', 'flaky')]), textMessage('done')])
    const result = (await session.load()).find((e) => e.type === 'tool/result')
    expect(result).toMatchObject({ meta: { attempts: 2 } })
    expect((await session.load()).filter((e) => e.type === 'state').at(-1)).toMatchObject({ value: { calls: 1 } })
  })

  it('are listed outside cache and retry in the loader\'s order declaration', async () => {
    const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { rein: { order: { outside: Record<string, string> } } }
    expect(Object.keys(manifest.rein.order.outside)).toEqual(['@rein/plugin-cache', '@rein/plugin-retry'])
  })
})
