import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { TOOL_DENIED, TOOL_TIMEOUT, defineTool, failure, type ToolExecutionResult } from '@rein/kernel'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createCache, type ConfigInput } from '../src/index.js'
import { counted, harness, held, summary } from './helpers.js'

const valueOf = (result: ToolExecutionResult) => result.isError ? result.error.info?.code : result.value

/** `read_file` (idempotent) and `write_file` (not) over real files in a fresh temp dir (removed after the test); `runs` counts reads. */
async function files(config: ConfigInput = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'rein-cache-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  const state = { reads: 0, writes: 0 }
  const read = defineTool({
    name: 'read_file', description: 'reads a file', parameters: { type: 'object' }, idempotent: true,
    execute: (args: { path: string }) => { state.reads++; return readFile(join(dir, args.path), 'utf8') },
  })
  const write = defineTool({
    name: 'write_file', description: 'writes a file', parameters: { type: 'object' },
    execute: async (args: { path: string, text: string }) => { state.writes++; await writeFile(join(dir, args.path), args.text); return 'ok' },
  })
  const clock = defineTool({ name: 'clock', description: 'changes nothing', parameters: { type: 'object' }, execute: () => 42 })
  const ctx = await harness(config, [read, write, clock])
  let n = 0
  const call = (name: string, args: object) => ctx.tools.execute({ id: `c${++n}`, name, arguments: args })
  await call('write_file', { path: 'a', text: 'old a' })
  await call('write_file', { path: 'b', text: 'old b' })
  return { ctx, state, call, readA: () => call('read_file', { path: 'a' }), readB: () => call('read_file', { path: 'b' }) }
}

describe("invalidateOn: 'write' (the default)", () => {
  it('clears every entry on a write: the next reads run again and see the new content', async () => {
    const f = await files()
    await f.readA()
    await f.readB()
    expect(summary(await f.readA())).toEqual(['OK', true, undefined])
    await f.call('write_file', { path: 'a', text: 'new a' })
    const [a, b] = [await f.readA(), await f.readB()]
    expect([valueOf(a), summary(a), valueOf(b), summary(b), f.state.reads]).toEqual(['new a', ['OK', undefined, undefined], 'old b', ['OK', undefined, undefined], 4])
    expect(summary(await f.readA())).toEqual(['OK', true, undefined])
  })

  it('does not clear on a call of a tool listed in pure', async () => {
    const f = await files({ pure: ['clock'] })
    await f.readA()
    await f.call('clock', {})
    expect([summary(await f.readA()), f.state.reads]).toEqual([['OK', true, undefined], 1])
  })

  it('does not clear on a write denied by a guard: the call never reaches tools/execute', async () => {
    const f = await files()
    f.ctx.tools.guard((exec) => exec.name === 'write_file' ? 'read-only here' : undefined)
    await f.readA()
    const denied = await f.call('write_file', { path: 'a', text: 'new a' })
    expect([valueOf(denied), f.state.writes]).toEqual([TOOL_DENIED, 2])
    const again = await f.readA()
    expect([valueOf(again), summary(again), f.state.reads]).toEqual(['old a', ['OK', true, undefined], 1])
  })
})

describe('a read that overlaps a write', () => {
  const read = (ctx: Awaited<ReturnType<typeof harness>>, id: string) => ctx.tools.execute({ id, name: 'held', arguments: {} })

  it('is not stored when the write started and ended while it ran', async () => {
    const tool = held()
    const write = counted({ name: 'write', idempotent: false })
    const ctx = await harness({}, [tool.definition, write.definition])
    const first = read(ctx, 'c1')
    await tool.started(1)
    await ctx.tools.execute({ id: 'w', name: 'write', arguments: {} })
    tool.runs[0].succeed('before')
    expect(valueOf(await first)).toBe('before')
    const second = read(ctx, 'c2')
    await tool.started(2)
    tool.runs[1].succeed('after')
    expect([valueOf(await second), summary(await second)]).toEqual(['after', ['OK', undefined, undefined]])
    expect(summary(await read(ctx, 'c3'))).toEqual(['OK', true, undefined])
  })

  it('is not stored when it ran while a write was in flight', async () => {
    const write = held('write', false)
    const lookup = counted()
    const ctx = await harness({}, [write.definition, lookup.definition])
    const writing = ctx.tools.execute({ id: 'w', name: 'write', arguments: {} })
    await write.started(1)
    await ctx.tools.execute({ id: 'c1', name: 'lookup', arguments: {} })
    await ctx.tools.execute({ id: 'c2', name: 'lookup', arguments: {} })
    expect(lookup.state.runs).toBe(2)
    write.runs[0].succeed('written')
    await writing
    await ctx.tools.execute({ id: 'c3', name: 'lookup', arguments: {} })
    expect(summary(await ctx.tools.execute({ id: 'c4', name: 'lookup', arguments: {} }))).toEqual(['OK', true, undefined])
    expect(lookup.state.runs).toBe(3)
  })

  it('is not stored when it began during a write that ended before it did', async () => {
    const write = held('write', false)
    const tool = held()
    const ctx = await harness({}, [write.definition, tool.definition])
    const writing = ctx.tools.execute({ id: 'w', name: 'write', arguments: {} })
    await write.started(1)
    const first = read(ctx, 'c1')
    await tool.started(1)
    write.runs[0].succeed('written')
    await writing
    tool.runs[0].succeed('maybe before')
    await first
    const second = read(ctx, 'c2')
    await tool.started(2)
    tool.runs[1].succeed('after')
    expect([valueOf(await second), summary(await second)]).toEqual(['after', ['OK', undefined, undefined]])
  })

  it('is not joined by a call made after the write: that call runs again, and the older result never replaces it', async () => {
    const tool = held()
    const write = counted({ name: 'write', idempotent: false })
    const ctx = await harness({}, [tool.definition, write.definition])
    const first = read(ctx, 'c1')
    await tool.started(1)
    await ctx.tools.execute({ id: 'w', name: 'write', arguments: {} })
    const second = read(ctx, 'c2')
    await tool.started(2)
    tool.runs[1].succeed('after')
    expect([valueOf(await second), summary(await second)]).toEqual(['after', ['OK', undefined, undefined]])
    tool.runs[0].succeed('before')
    expect(valueOf(await first)).toBe('before')
    const third = await read(ctx, 'c3')
    expect([valueOf(third), summary(third), tool.runs.length]).toEqual(['after', ['OK', true, undefined], 2])
  })
})

describe("invalidateOn: 'never'", () => {
  it('keeps serving what was stored before a write (for tools that read nothing a write can change)', async () => {
    const f = await files({ invalidateOn: 'never' })
    await f.readA()
    await f.call('write_file', { path: 'a', text: 'new a' })
    const again = await f.readA()
    expect([valueOf(again), summary(again), f.state.reads, f.state.writes]).toEqual(['old a', ['OK', true, undefined], 1, 3])
  })
})

describe('a write whose result is abandoned while its body still runs', () => {
  /** Cache outside a layer that, like timeout-policy, gives up on `write_file` as soon as its body starts. */
  async function abandoning(name: string) {
    const disk = { text: 'v1', reads: 0 }
    let land = () => {}
    const landed = new Promise<void>((resolve) => { land = resolve })
    let release = () => {}
    const write = defineTool({
      name: 'write_file', description: 'writes late', parameters: { type: 'object' },
      execute: () => new Promise<string>((resolve) => { release = () => { disk.text = 'v2'; land(); resolve('ok') } }),
    })
    const read = defineTool({
      name: 'read_file', description: 'reads', parameters: { type: 'object' }, idempotent: true,
      execute: () => { disk.reads++; return disk.text },
    })
    const ctx = new Context()
    ctx.plugin(kernel)
    const fork = ctx.plugin(createCache(), { ttlMs: 60_000 })
    ctx.plugin({ name: 'gives-up', inject: ['tools'], apply: (ctx: Context) => ctx.on('tools/execute', (exec, next) => {
      if (exec.name !== 'write_file') return next()
      void next()
      return Promise.resolve(failure(TOOL_TIMEOUT, 'gave up', name))
    }) })
    ctx.plugin({ name: 'tools-under-test', inject: ['tools'], apply: (ctx: Context) => { ctx.tools.register(write); ctx.tools.register(read) } })
    await ctx.start()
    let n = 0
    const call = (tool: string) => ctx.tools.execute({ id: `c${++n}`, name: tool, arguments: {} })
    return { disk, call, fork, landed, release: () => release() }
  }

  it.each(['ToolTimeoutAbandoned', 'Abandoned'])('never serves a read taken before the write landed (info.name %s)', async (name) => {
    const w = await abandoning(name)
    expect(summary(await w.call('write_file'))).toEqual([TOOL_TIMEOUT, undefined, undefined])
    expect(valueOf(await w.call('read_file'))).toBe('v1')
    w.release()
    await w.landed
    const after = await w.call('read_file')
    expect([valueOf(after), summary(after)]).toEqual(['v2', ['OK', undefined, undefined]])
    w.fork.dispose()
  })

  it('stores nothing while the write is held, even after it landed', async () => {
    const w = await abandoning('ToolTimeoutAbandoned')
    await w.call('write_file')
    w.release()
    await w.landed
    await w.call('read_file')
    const again = await w.call('read_file')
    expect([summary(again), w.disk.reads]).toEqual([['OK', undefined, undefined], 2])
    w.fork.dispose()
  })
})
