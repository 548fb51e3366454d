import { utf8Length } from '@rein/retention'
import { describe, expect, it } from 'vitest'
import { LocalSpillStore } from '../src/local-store.js'
import { memoryStore } from '../src/memory-store.js'
import type { SpilledSlice } from '../src/read-tool.js'
import type { ToolExecutionResult } from '@rein/kernel'
import { firstText, harness } from './helpers.js'

function sliceOf(result: ToolExecutionResult): SpilledSlice {
  if (result.isError) throw new Error(`read_spilled failed: ${result.error.message}`)
  return result.value as SpilledSlice
}

describe('read_spilled', () => {
  it('pages through a spilled output byte for byte', async () => {
    const { outputs, call } = await harness({ store: 'local', maxInlineBytes: 4000 })
    const text = Array.from({ length: 3000 }, (_, i) => `${i}: ünïcödé 😀`).join('\n')
    outputs.set('default', text)
    const spilled = await call('emit')
    const { locator } = spilled.meta!.spilled as { locator: string }
    let offset = 0
    let out = ''
    for (let reads = 0; ; reads++) {
      const result = await call('read_spilled', { locator, offset })
      expect(result.isError).toBe(false)
      const value = sliceOf(result)
      expect(utf8Length(value.text)).toBeLessThanOrEqual(4000)
      out += value.text
      if (!value.more) break
      expect(result.content[1]).toEqual({ type: 'text', text: expect.stringContaining(`offset: ${value.nextOffset}`) })
      offset = value.nextOffset
      expect(reads).toBeLessThan(100)
    }
    expect(out).toBe(text)
  })

  it('is never spilled itself, even when its result is over the cap', async () => {
    const { outputs, call } = await harness({ store: 'memory', maxInlineBytes: 500 })
    outputs.set('default', 'r'.repeat(5000))
    const { locator } = (await call('emit')).meta!.spilled as { locator: string }
    const result = await call('read_spilled', { locator, offset: 100, limit: 500 })
    expect(firstText(result)).toBe('r'.repeat(500))
    expect(utf8Length(result.content.map((b) => (b as { text: string }).text).join('\n'))).toBeGreaterThan(500)
    expect(result.meta).toBeUndefined()
  })

  it('caps limit at maxInlineBytes', async () => {
    const { outputs, call } = await harness({ store: 'memory', maxInlineBytes: 1000 })
    outputs.set('default', 's'.repeat(5000))
    const { locator } = (await call('emit')).meta!.spilled as { locator: string }
    const result = await call('read_spilled', { locator, limit: 4000 })
    expect(sliceOf(result)).toMatchObject({ offset: 0, nextOffset: 1000, totalBytes: 5000, more: true })
  })

  it('fails with SPILL_NOT_FOUND for an unknown locator and INVALID_ARGS for bad arguments', async () => {
    const { call } = await harness({ store: 'local' })
    const missing = await call('read_spilled', { locator: '../../etc/passwd' })
    expect(missing.isError && missing.error.info?.code).toBe('SPILL_NOT_FOUND')
    const bad = await call('read_spilled', { locator: 'x', offset: -1 })
    expect(bad.isError && bad.error.info?.code).toBe('INVALID_ARGS')
  })

  it('fails with SPILL_STORE_UNAVAILABLE when the external store is missing', async () => {
    const { call } = await harness({ store: 'external' })
    const result = await call('read_spilled', { locator: 'spill_x' })
    expect(result.isError && result.error.info?.code).toBe('SPILL_STORE_UNAVAILABLE')
  })

  it('reads from a store another plugin provides when store is external', async () => {
    const shared = memoryStore()
    const { call } = await harness({ store: 'external', maxInlineBytes: 1500 }, (c) => { c.set('spillStore', shared) })
    const { locator } = await shared.save('from elsewhere', { tool: 't', callId: 'c' })
    expect(firstText(await call('read_spilled', { locator }))).toBe('from elsewhere')
  })

  it('reads only the page asked for (and a few bytes for boundaries) from a store that has readRange', async () => {
    const ranges: number[] = []
    const local = new LocalSpillStore()
    const store = Object.assign(local, {
      read: () => Promise.reject(new Error('read the whole output')),
      readRange: (locator: string, start: number, end: number) => {
        ranges.push(end - start)
        return LocalSpillStore.prototype.readRange.call(local, locator, start, end)
      },
    })
    const { call } = await harness({ store: 'external', maxInlineBytes: 1000 }, (c) => { c.set('spillStore', store) })
    const text = Array.from({ length: 400 }, (_, i) => `${i}: ünïcödé 😀`).join('\n')
    const { locator } = await store.save(text, { tool: 't', callId: 'c' })
    let offset = 0
    let out = ''
    for (;;) {
      const value = sliceOf(await call('read_spilled', { locator, offset, limit: 333 }))
      out += value.text
      if (!value.more) break
      offset = value.nextOffset
    }
    await local.close()
    expect(out).toBe(text)
    expect(Math.max(...ranges)).toBeLessThanOrEqual(333 + 4)
  })

  it('may run in parallel and is marked idempotent', async () => {
    const { ctx } = await harness()
    expect(ctx.tools.executionMode({ id: '1', name: 'read_spilled', arguments: { locator: 'x' } })).toBe('parallel')
    expect(ctx.tools.get('read_spilled')?.idempotent).toBe(true)
  })
})
