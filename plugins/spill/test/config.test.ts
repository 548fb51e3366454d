import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { capFor, Config } from '../src/config.js'
import * as spill from '../src/index.js'

describe('Config', () => {
  it('defaults to a 50000-byte cap, no overrides and the local store', () => {
    expect(Config(undefined as any)).toEqual({ maxInlineBytes: 50_000, tools: {}, store: 'local', maxStoreBytes: 268_435_456, redact: false })
    expect(Config({})).toEqual({ maxInlineBytes: 50_000, tools: {}, store: 'local', maxStoreBytes: 268_435_456, redact: false })
  })

  it('takes per-tool caps that override the default', () => {
    const config = Config({ maxInlineBytes: 1000, tools: { bash: 20_000 } })
    expect(capFor(config, 'bash')).toBe(20_000)
    expect(capFor(config, 'read_file')).toBe(1000)
    expect(capFor(config, 'toString')).toBe(1000)
  })

  it('takes a batch budget, unset by default (an empty value is unset too)', () => {
    expect(Config({ maxBatchBytes: 100_000 })).toEqual({ maxInlineBytes: 50_000, tools: {}, store: 'local', maxStoreBytes: 268_435_456, redact: false, maxBatchBytes: 100_000 })
    expect(Config({ maxBatchBytes: null } as any)).toEqual({ maxInlineBytes: 50_000, tools: {}, store: 'local', maxStoreBytes: 268_435_456, redact: false })
  })

  it.each([
    [{ maxBatchBytes: 0 }, '$.maxBatchBytes expected number >= 1 but got 0'],
    [{ maxBatchBytes: -3 }, '$.maxBatchBytes expected number >= 1 but got -3'],
    [{ maxBatchBytes: 'lots' }, '$.maxBatchBytes expected number but got lots'],
    [{ maxBatchBytes: 1.5 }, '$.maxBatchBytes expected number multiple of 1 but got 1.5'],
  ])('rejects the batch budget %j at load with the exact message', async (bad, message) => {
    expect(() => Config(bad as any)).toThrow(message)
    const ctx = new Context()
    ctx.plugin(kernel)
    const fork = ctx.plugin(spill, bad as any)
    await ctx.start()
    expect(fork.error?.message).toBe(message)
    expect(ctx.tools.chain('tools/post-execute')).toEqual([])
  })

  it.each([
    [{ maxInlineBytes: 'big' }, /maxInlineBytes/],
    [{ maxInlineBytes: 0 }, /maxInlineBytes/],
    [{ maxInlineBytes: 1.5 }, /maxInlineBytes/],
    [{ tools: { bash: -5 } }, /tools\.bash/],
    [{ store: 'disk' }, /store/],
    [{ dir: 42 }, /dir/],
    [{ store: 'memory', dir: '/tmp/x' }, /dir is only used by store "local"/],
  ])('rejects %j at load, naming the key', async (bad, message) => {
    expect(() => Config(bad as any)).toThrow(message)
    const ctx = new Context()
    ctx.plugin(kernel)
    const fork = ctx.plugin(spill, bad as any)
    await ctx.start()
    expect(fork.error?.message).toMatch(message)
    expect(ctx.tools.get('read_spilled')).toBeUndefined()
    expect(ctx.tools.chain('tools/post-execute')).toEqual([])
  })
})
