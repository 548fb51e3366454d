import { readdir } from 'node:fs/promises'
import { describe, expect, it, onTestFinished } from 'vitest'
import { localStore } from '../src/local-store.js'
import { memoryStore } from '../src/memory-store.js'
import { Config } from '../src/config.js'
import type { SpillStore } from '../src/store.js'
import { firstText, harness } from './helpers.js'

const meta = { tool: 't', callId: 'c' }
const text = (n: number, fill = 'x') => fill.repeat(n)

type Made = { store: SpillStore & { bytes: number }, files: () => Promise<number> }
const stores: Array<[string, (maxBytes: number) => Made]> = [
  ['memory', (maxBytes) => {
    const store = memoryStore({ maxBytes })
    return { store, files: async () => store.size }
  }],
  ['local', (maxBytes) => {
    const store = localStore({ maxBytes })
    onTestFinished(() => store.close())
    return { store, files: async () => (store.directory ? (await readdir(store.directory)).length : 0) }
  }],
]

describe.each(stores)('the %s store, bounded', (_kind, make) => {
  it('removes the oldest outputs first to stay within maxBytes', async () => {
    const { store, files } = make(250)
    const a = await store.save(text(100, 'a'), meta)
    const b = await store.save(text(100, 'b'), meta)
    const c = await store.save(text(100, 'c'), meta)
    expect([store.bytes, await files()]).toEqual([200, 2])
    expect(await store.read(b.locator)).toBe(text(100, 'b'))
    expect(await store.read(c.locator)).toBe(text(100, 'c'))
    await expect(store.read(a.locator)).rejects.toMatchObject({ code: 'SPILL_EXPIRED', message: expect.stringMatching(/expired.*maxStoreBytes \(250 bytes\).*run the tool that produced it again/) })
  })

  it('says "expired" through readRange too, and still "not found" for a locator it never issued', async () => {
    const { store } = make(150)
    const a = await store.save(text(100, 'a'), meta)
    await store.save(text(100, 'b'), meta)
    if (store.readRange) await expect(store.readRange(a.locator, 0, 10)).rejects.toMatchObject({ code: 'SPILL_EXPIRED' })
    await expect(store.read('spill_0123456789abcdef0123456789abcdef')).rejects.toMatchObject({ code: 'SPILL_NOT_FOUND' })
  })

  it('keeps the newest output even when it alone is over the bound', async () => {
    const { store, files } = make(50)
    await store.save(text(10, 'a'), meta)
    const big = await store.save(text(80, 'b'), meta)
    expect([await store.read(big.locator), await files()]).toEqual([text(80, 'b'), 1])
  })

  it('300 saves of the same large text stay within the bound (the reviewer\'s cache-hit case)', async () => {
    const { store, files } = make(1000)
    for (let i = 0; i < 300; i++) await store.save(text(100), { tool: 't', callId: `c${i}` })
    expect([store.bytes, await files()]).toEqual([1000, 10])
  })

  it('a deleted output is no longer counted, and reads as not found (not expired)', async () => {
    const { store } = make(150)
    const a = await store.save(text(100, 'a'), meta)
    await store.delete!(a.locator)
    const b = await store.save(text(100, 'b'), meta)
    expect([store.bytes, await store.read(b.locator)]).toEqual([100, text(100, 'b')])
    await expect(store.read(a.locator)).rejects.toMatchObject({ code: 'SPILL_NOT_FOUND' })
  })
})

describe('maxStoreBytes', () => {
  it('defaults to 256 MiB and must be a positive integer', () => {
    expect(Config({}).maxStoreBytes).toBe(256 * 1024 * 1024)
    expect(() => Config({ maxStoreBytes: 0 })).toThrow('$.maxStoreBytes expected number >= 1 but got 0')
  })

  it.each(['memory', 'local'])('bounds the %s store the plugin makes; read_spilled of a removed output fails SPILL_EXPIRED', async (store) => {
    const { outputs, call } = await harness({ store, maxInlineBytes: 500, maxStoreBytes: 5000 })
    const locators: string[] = []
    for (let i = 0; i < 3; i++) {
      outputs.set(`k${i}`, text(2000, String(i)))
      const result = await call('emit', { key: `k${i}` })
      locators.push((result.meta!.spilled as { locator: string }).locator)
    }
    const gone = await call('read_spilled', { locator: locators[0] })
    expect(gone.isError && gone.error.info?.code).toBe('SPILL_EXPIRED')
    expect(firstText(gone)).toMatch(/^Error: .*expired/)
    const kept = await call('read_spilled', { locator: locators[2], limit: 10 })
    expect(kept.isError).toBe(false)
  })
})
