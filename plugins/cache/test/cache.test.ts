import { ABORTED } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { counted, entered, harness, held, manualClock, summary } from './helpers.js'

const call = (args: unknown, name = 'lookup', id = 'c1') => ({ id, name, arguments: args })

describe('stored successes', () => {
  it('serve an identical call (keys in any order) without running the body, marked cacheHit', async () => {
    const { definition, state } = counted()
    const ctx = await harness({}, [definition])
    const first = await ctx.tools.execute(call({ a: 1, b: [1, { c: 2, d: 3 }] }))
    const second = await ctx.tools.execute(call({ b: [1, { d: 3, c: 2 }], a: 1 }, 'lookup', 'c2'))
    expect(state.runs).toBe(1)
    expect(summary(first)).toEqual(['OK', undefined, undefined])
    expect(summary(second)).toEqual(['OK', true, undefined])
    expect([second.isError === false && second.value, second.content]).toEqual([first.isError === false && first.value, first.content])
  })

  it('are keyed by tool and arguments: different arguments run again', async () => {
    const { definition, state } = counted()
    const ctx = await harness({}, [definition])
    await ctx.tools.execute(call({ a: 1 }))
    await ctx.tools.execute(call({ a: 2 }))
    await ctx.tools.execute(call({ a: '1' }))
    expect(state.runs).toBe(3)
  })

  it('follow the definition at each call: a tool registered again as idempotent is cached', async () => {
    const ctx = await harness({}, [])
    const plain = counted({ idempotent: false })
    const remove = ctx.tools.register(plain.definition)
    await ctx.tools.execute(call({ a: 1 }))
    await ctx.tools.execute(call({ a: 1 }, 'lookup', 'c2'))
    remove()
    const marked = counted()
    ctx.tools.register(marked.definition)
    await ctx.tools.execute(call({ a: 1 }, 'lookup', 'c3'))
    const again = await ctx.tools.execute(call({ a: 1 }, 'lookup', 'c4'))
    expect([plain.state.runs, marked.state.runs, summary(again)[1]]).toEqual([2, 1, true])
  })

  it('are never kept for a tool that is not marked idempotent', async () => {
    const { definition, state } = counted({ idempotent: false })
    const ctx = await harness({}, [definition])
    await ctx.tools.execute(call({ a: 1 }))
    const again = await ctx.tools.execute(call({ a: 1 }))
    expect([state.runs, again.meta]).toEqual([2, undefined])
  })

  it('expire ttlMs after they were stored (by the injected clock)', async () => {
    const clock = manualClock()
    const { definition, state } = counted()
    const ctx = await harness({ ttlMs: 1000 }, [definition], clock.now)
    await ctx.tools.execute(call({}))
    clock.t += 999
    expect(summary(await ctx.tools.execute(call({})))).toEqual(['OK', true, undefined])
    clock.t += 1
    expect(summary(await ctx.tools.execute(call({})))).toEqual(['OK', undefined, undefined])
    expect(state.runs).toBe(2)
  })

  it('are bounded by maxEntries, the least recently used evicted first', async () => {
    const { definition, state } = counted()
    const ctx = await harness({ maxEntries: 2 }, [definition])
    const run = async (...keys: string[]) => { for (const k of keys) await ctx.tools.execute(call({ k })) }
    await run('a', 'b', 'a', 'c')
    expect(state.runs).toBe(3)
    await run('a', 'c')
    expect(state.runs).toBe(3)
    await run('b')
    expect(state.runs).toBe(4)
  })
})

describe('failures', () => {
  it('are never stored: the next identical call runs the body again', async () => {
    let runs = 0
    const { definition } = counted({
      execute: () => {
        runs++
        if (runs === 1) throw Object.assign(new Error('flaky'), { code: 'ECONNRESET' })
        return 'ok'
      },
    })
    const ctx = await harness({}, [definition])
    expect(summary(await ctx.tools.execute(call({})))).toEqual(['ECONNRESET', undefined, undefined])
    expect(summary(await ctx.tools.execute(call({})))).toEqual(['OK', undefined, undefined])
    expect(summary(await ctx.tools.execute(call({})))).toEqual(['OK', true, undefined])
    expect(runs).toBe(2)
  })
})

describe('identical calls in flight together', () => {
  const heldCall = (id: string, signal?: AbortSignal) => [{ id, name: 'held', arguments: { q: 1 } }, { signal }] as const

  it('run the body once; the joiner gets the same result, marked cacheShared', async () => {
    const tool = held()
    const ctx = await harness({}, [tool.definition])
    const first = ctx.tools.execute(...heldCall('c1'))
    await tool.started(1)
    const second = ctx.tools.execute(...heldCall('c2'))
    tool.runs[0].succeed('shared')
    const results = await Promise.all([first, second])
    expect(results.map(summary)).toEqual([['OK', undefined, undefined], ['OK', true, true]])
    expect(results.map((r) => r.isError === false && r.value)).toEqual(['shared', 'shared'])
    expect(tool.runs).toHaveLength(1)
  })

  it('share a failure that is not an abort, and do not store it', async () => {
    const tool = held()
    const ctx = await harness({}, [tool.definition])
    const first = ctx.tools.execute(...heldCall('c1'))
    await tool.started(1)
    const second = ctx.tools.execute(...heldCall('c2'))
    tool.runs[0].fail('UNAVAILABLE')
    expect((await Promise.all([first, second])).map(summary)).toEqual([['UNAVAILABLE', undefined, undefined], ['UNAVAILABLE', true, true]])
    const third = ctx.tools.execute(...heldCall('c3'))
    await tool.started(2)
    tool.runs[1].succeed('fresh')
    expect(summary(await third)).toEqual(['OK', undefined, undefined])
  })

  it('do not pass the first caller\'s abort on: the joiner runs the call itself', async () => {
    const tool = held()
    const ctx = await harness({}, [tool.definition])
    const waiting = await entered(ctx, ['c2', 'c3'])
    const leader = new AbortController()
    const first = ctx.tools.execute(...heldCall('c1', leader.signal))
    await tool.started(1)
    const second = ctx.tools.execute(...heldCall('c2'))
    const third = ctx.tools.execute(...heldCall('c3'))
    await waiting.all
    leader.abort()
    expect(summary(await first)).toEqual([ABORTED, undefined, undefined])
    await tool.started(2)
    tool.runs[1].succeed('second run')
    const [r2, r3] = await Promise.all([second, third])
    expect([summary(r2), summary(r3)]).toEqual([['OK', undefined, undefined], ['OK', true, true]])
    expect(r3.isError === false && r3.value).toBe('second run')
    expect(tool.runs).toHaveLength(2)
  })

  it('let a joiner that aborts leave at once with ABORTED, while the run goes on and is stored', async () => {
    const tool = held()
    const ctx = await harness({}, [tool.definition])
    const waiting = await entered(ctx, ['c2'])
    const first = ctx.tools.execute(...heldCall('c1'))
    await tool.started(1)
    const joiner = new AbortController()
    const second = ctx.tools.execute(...heldCall('c2', joiner.signal))
    await waiting.all
    joiner.abort()
    const left = await second
    expect(summary(left)).toEqual([ABORTED, undefined, undefined])
    expect(left.content[0]).toEqual({ type: 'text', text: 'Error: tool call aborted' })
    expect(tool.runs[0].exec.signal.aborted).toBe(false)
    tool.runs[0].succeed('kept')
    expect(summary(await first)).toEqual(['OK', undefined, undefined])
    expect(summary(await ctx.tools.execute(...heldCall('c3')))).toEqual(['OK', true, undefined])
    expect(tool.runs).toHaveLength(1)
  })
})
