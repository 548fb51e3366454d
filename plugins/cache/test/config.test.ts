import { withKernel } from '@rein/testing'
import { describe, expect, it } from 'vitest'
import * as cache from '../src/index.js'

const load = (config: unknown) => withKernel(cache, config)

describe('the config', () => {
  it('has the contract defaults', () => {
    expect(cache.Config({})).toEqual({ ttlMs: 300_000, maxEntries: 1000, invalidateOn: 'write', pure: [], shareAcrossSessions: false })
  })

  it('loads and hooks tools/execute with a valid config', async () => {
    const { ctx, fork } = await load({ ttlMs: 60_000 })
    expect(fork.error).toBeFalsy()
    expect(ctx.tools.chain('tools/execute')).toEqual(['cache'])
  })

  it.each([
    [{ ttlMs: -1 }, '$.ttlMs expected number >= 0 but got -1'],
    [{ maxEntries: 'many' }, '$.maxEntries expected number but got many'],
    [{ maxEntries: 2.5 }, '$.maxEntries expected number multiple of 1 but got 2.5'],
    [{ invalidateOn: 'sometimes' }, '$.invalidateOn expected "write" | "never" but got "sometimes"'],
    [{ pure: 'clock' }, '$.pure expected array but got clock'],
  ])('rejects %j at load with a message naming the key', async (config, message) => {
    const { ctx, fork } = await load(config)
    expect(fork.error?.message).toBe(message)
    expect(ctx.tools.chain('tools/execute')).toEqual([])
  })
})
