/**
 * `maxBatchBytes`: one budget for the inline bytes of a whole batch, spent in model order.
 * Calls run through a real kernel one after another, as the agent runs post-execute.
 */
import { utf8Length } from '@rein/retention'
import type { ExecuteOptions, ToolExecutionResult } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { BatchLedger } from '../src/batch.js'
import { firstText, harness } from './helpers.js'

/** The notice alone for a 40 000-byte output with a memory-store locator (`spill_mem_` + 24 hex digits). */
const NOTICE_ALONE = 267

/** Runs `keys` as one batch (`turn`, indexes 0..n-1), serially in model order; returns the results. */
async function batch(call: (options: ExecuteOptions, key: string) => Promise<ToolExecutionResult>, keys: string[], turn = 1) {
  const results: ToolExecutionResult[] = []
  for (const [index, key] of keys.entries()) results.push(await call({ agent: 'main', turn, index }, key))
  return results
}

/** A started harness with spill `config`, plus `run(options, key)`: `emit` with the text under `key`. */
async function setup(config: Record<string, unknown>) {
  const h = await harness({ store: 'memory', ...config })
  let id = 0
  const run = (options: ExecuteOptions, key: string) =>
    h.ctx.tools.execute({ id: `call_${++id}`, name: 'emit', arguments: { key } }, options)
  return { ...h, run }
}

/** What the model sees of each result, in bytes, and which were spilled. */
const shape = (results: ToolExecutionResult[]) => results.map((r) => [utf8Length(firstText(r)), r.meta?.spilled !== undefined])

describe('maxBatchBytes', () => {
  it('shows ten 40 kB results of one batch within 100 000 bytes: two inline, then previews that fit what is left', async () => {
    const { outputs, run } = await setup({ maxBatchBytes: 100_000 })
    for (let i = 0; i < 10; i++) outputs.set(`r${i}`, `${i}`.repeat(40_000))
    const results = await batch(run, [...outputs.keys()])
    expect(shape(results)).toEqual([
      [40_000, false], [40_000, false],
      [19_999, true],                                  // 100 000 - 80 000 left: head + notice + tail within it
      ...Array.from({ length: 7 }, () => [NOTICE_ALONE, true]), // 1 byte left: the notice alone
    ])
    expect(results.slice(0, 2).map(firstText)).toEqual(['0'.repeat(40_000), '1'.repeat(40_000)])
    expect(shape(results).reduce((sum, [bytes]) => sum + (bytes as number), 0)).toBe(80_000 + 19_999 + 7 * NOTICE_ALONE)
    const third = firstText(results[2])
    const { locator } = results[2].meta!.spilled as { locator: string }
    expect(third).toBe(`${'2'.repeat(9864)}\n\n[... 20271 bytes omitted here, starting at byte offset 9864 of 40000.`
      + ` The whole output is saved under locator "${locator}": call read_spilled({ locator: "${locator}", offset, limit })`
      + ` to read any byte range of it. ...]\n\n${'2'.repeat(9865)}`)
    const last = results[9]
    const lastLocator = (last.meta!.spilled as { locator: string }).locator
    expect(firstText(last)).toBe(`\n\n[... 40000 bytes omitted here, starting at byte offset 0 of 40000.`
      + ` The whole output is saved under locator "${lastLocator}": call read_spilled({ locator: "${lastLocator}", offset, limit })`
      + ` to read any byte range of it. ...]\n\n`)
  })

  it('spills the same results of the same batch every time', async () => {
    const sizes = [30_000, 5_000, 50_000, 10, 20_000, 45_000, 100, 3_000]
    const runOnce = async (turn: number, setupFresh: boolean, shared?: Awaited<ReturnType<typeof setup>>) => {
      const h = setupFresh || !shared ? await setup({ maxBatchBytes: 60_000 }) : shared
      sizes.forEach((size, i) => h.outputs.set(`s${i}`, 'é'.repeat(size / 2)))
      return { h, shape: shape(await batch(h.run, sizes.map((_, i) => `s${i}`), turn)) }
    }
    const first = await runOnce(1, true)
    const restarted = await runOnce(1, false, first.h)  // a new session: turn 1 again, its indexes seen before
    const next = await runOnce(2, false, first.h)       // the next turn of the same agent
    const fresh = await runOnce(1, true)                // another harness
    expect([restarted.shape, next.shape, fresh.shape]).toEqual([first.shape, first.shape, first.shape])
    expect(first.shape.map(([, spilled]) => spilled)).toEqual([false, false, true, false, true, true, false, true])
  })

  it('counts a call without a turn alone, and keeps each agent\'s batch apart', async () => {
    const { outputs, run } = await setup({ maxBatchBytes: 30_000 })
    outputs.set('big', 'b'.repeat(25_000))
    const alone = [await run({}, 'big'), await run({}, 'big')]
    expect(shape(alone)).toEqual([[25_000, false], [25_000, false]])
    const interleaved = [
      await run({ agent: 'a', turn: 1, index: 0 }, 'big'),
      await run({ agent: 'b', turn: 1, index: 0 }, 'big'),
      await run({ agent: 'a', turn: 1, index: 1 }, 'big'),
    ]
    expect(shape(interleaved).map(([, spilled]) => spilled)).toEqual([false, false, true])
    expect(utf8Length(firstText(interleaved[2]))).toBeLessThanOrEqual(5_000)
  })

  it('keeps the per-tool cap: a result over it is charged its preview, not its size', async () => {
    const { outputs, run } = await setup({ maxBatchBytes: 30_000, maxInlineBytes: 10_000 })
    outputs.set('huge', 'h'.repeat(80_000))
    outputs.set('mid', 'm'.repeat(9_000))
    const results = await batch(run, ['huge', 'huge', 'mid', 'mid'])
    // 9 999 + 9 999 + 9 000 = 28 998 shown; the last gets the 1 002 bytes left.
    expect(shape(results)).toEqual([[9_999, true], [9_999, true], [9_000, false], [1_001, true]])
  })

  it('leaves inline a result the notice alone would not shrink, and counts it', async () => {
    const { outputs, run } = await setup({ maxBatchBytes: 1_000 })
    outputs.set('fill', 'f'.repeat(1_000))
    outputs.set('small', 's'.repeat(200))
    const results = await batch(run, ['fill', 'small', 'small'])
    expect(shape(results)).toEqual([[1_000, false], [200, false], [200, false]])
  })

  it('keeps an error\'s Error: prefix when only the notice fits, and its code', async () => {
    const { outputs, ctx } = await setup({ maxBatchBytes: 5_000 })
    outputs.set('fill', 'f'.repeat(5_000))
    outputs.set('bad', 'the build failed\n'.repeat(500))
    const options = (index: number): ExecuteOptions => ({ agent: 'main', turn: 1, index })
    await ctx.tools.execute({ id: 'c0', name: 'emit', arguments: { key: 'fill' } }, options(0))
    const failed = await ctx.tools.execute({ id: 'c1', name: 'emit', arguments: { key: 'bad', fail: true } }, options(1))
    expect(failed.isError && failed.error.info?.code).toBe('E_BIG')
    expect(firstText(failed)).toMatch(/^Error: \n\n\[\.\.\. 8500 bytes omitted here, starting at byte offset 7 of 8507\./)
  })

  it('counts read_spilled results but never spills them', async () => {
    const { outputs, run, ctx } = await setup({ maxBatchBytes: 20_000 })
    outputs.set('big', 'r'.repeat(60_000))
    const [spilled] = await batch(run, ['big'])
    const { locator } = spilled.meta!.spilled as { locator: string }
    const read = (index: number) => ctx.tools.execute({ id: `read_${index}`, name: 'read_spilled', arguments: { locator, limit: 15_000 } }, { agent: 'main', turn: 2, index })
    const reads = [await read(0), await read(1)]
    expect(reads.map((r) => r.meta?.spilled)).toEqual([undefined, undefined])
    outputs.set('after', 'a'.repeat(1_000))
    const after = await run({ agent: 'main', turn: 2, index: 2 }, 'after')
    expect(after.meta?.spilled).toBeDefined()
  })
})

describe('BatchLedger', () => {
  it('gives each call of a batch what the calls before it left, and starts again on a new turn or a repeated index', () => {
    const ledger = new BatchLedger(100)
    const spend = (exec: { agent?: string, turn?: number, index?: number, parent?: string }, bytes: number) => {
      const share = ledger.enter(exec)
      share.charge(bytes)
      return share.room
    }
    expect([spend({ turn: 1, index: 0 }, 60), spend({ turn: 1, index: 1 }, 60), spend({ turn: 1, index: 2 }, 0)]).toEqual([100, 40, 0])
    expect(spend({ turn: 2, index: 0 }, 30)).toBe(100)
    expect(spend({ turn: 2, index: 0 }, 0)).toBe(100)
    expect(spend({ turn: 2, index: 1, parent: 'call_9' }, 500)).toBe(100)
    expect(spend({}, 500)).toBe(100)
  })
})
