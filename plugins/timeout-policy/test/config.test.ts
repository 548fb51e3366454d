import { withKernel } from '@rein/testing'
import { describe, expect, it } from 'vitest'
import * as timeout from '../src/index.js'

const load = (config: unknown) => withKernel(timeout, config)

describe('the config', () => {
  it('has the contract defaults: graceMs 1000, no tools, no heartbeat, and a finite 30 s default deadline', () => {
    expect(timeout.DEFAULT_TIMEOUT_MS).toBe(30_000)
    expect(timeout.Config({})).toEqual({ defaultMs: 30_000, graceMs: 1000, tools: {}, resetOnProgress: false })
    expect(timeout.Config(undefined)).toEqual({ defaultMs: 30_000, graceMs: 1000, tools: {}, resetOnProgress: false })
  })

  it('loads and hooks tools/execute with a valid config', async () => {
    const { ctx, fork } = await load({ defaultMs: 5000, tools: { bash: 60_000 } })
    expect(fork.error).toBeFalsy()
    expect(ctx.tools.chain('tools/execute')).toEqual(['timeout-policy'])
  })

  it.each([
    [{ graceMs: -1 }, '$.graceMs expected number >= 0 but got -1'],
    [{ defaultMs: 0 }, '$.defaultMs expected number >= 1 but got 0'],
    [{ tools: { bash: 'soon' } }, '$.tools.bash expected number but got soon'],
    [{ resetOnProgress: 'yes' }, '$.resetOnProgress expected boolean but got yes'],
    [{ graceMs: 2_147_483_648 }, '$.graceMs expected number <= 2147483647 but got 2147483648'],
    [{ graceMs: 1.5 }, '$.graceMs expected number multiple of 1 but got 1.5'],
  ])('rejects %j at load with a message naming the key', async (config, message) => {
    const { ctx, fork } = await load(config)
    expect(fork.error?.message).toBe(message)
    expect(ctx.tools.chain('tools/execute')).toEqual([])
  })
})
