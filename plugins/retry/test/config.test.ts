import { withKernel } from '@rein/testing'
import { describe, expect, it } from 'vitest'
import * as retry from '../src/index.js'

const load = (config: unknown) => withKernel(retry, config)

describe('the config', () => {
  it('has the contract defaults', () => {
    expect(retry.Config({})).toEqual({
      maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 10_000,
      retryOn: ['TOOL_TIMEOUT', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'RATE_LIMITED', 'UNAVAILABLE'],
      retryHttp: true, minOverloadDelayMs: 1000,
    })
  })

  it('accepts maxAttempts up to the limit of 100', async () => {
    expect(retry.MAX_ATTEMPTS_LIMIT).toBe(100)
    const { fork } = await load({ maxAttempts: 100 })
    expect(fork.error).toBeFalsy()
  })

  it('loads and hooks tools/execute with a valid config', async () => {
    const { ctx, fork } = await load({ maxAttempts: 5, retryOn: ['ECONNRESET'] })
    expect(fork.error).toBeFalsy()
    expect(ctx.tools.chain('tools/execute')).toEqual(['retry'])
  })

  it.each([
    [{ maxAttempts: 0 }, '$.maxAttempts expected number >= 1 but got 0'],
    [{ maxAttempts: 101 }, '$.maxAttempts expected number <= 100 but got 101'],
    [{ maxAttempts: 1_000_000_000 }, '$.maxAttempts expected number <= 100 but got 1000000000'],
    [{ minOverloadDelayMs: -1 }, '$.minOverloadDelayMs expected number >= 0 but got -1'],
    [{ minOverloadDelayMs: 3_000_000_000 }, '$.minOverloadDelayMs expected number <= 2147483647 but got 3000000000'],
    [{ baseDelayMs: -5 }, '$.baseDelayMs expected number >= 0 but got -5'],
    [{ maxDelayMs: 'long' }, '$.maxDelayMs expected number but got long'],
    [{ baseDelayMs: 2_147_483_648 }, '$.baseDelayMs expected number <= 2147483647 but got 2147483648'],
    [{ maxDelayMs: 3_000_000_000 }, '$.maxDelayMs expected number <= 2147483647 but got 3000000000'],
    [{ retryOn: 'TOOL_TIMEOUT' }, '$.retryOn expected array but got TOOL_TIMEOUT'],
    [{ retryOn: ['TOOL_TIMEOUT', 'ABORTED'] },
      '$.retryOn lists "ABORTED", which is never retried (the call was stopped, refused or is invalid): remove it'],
    [{ retryOn: ['INVALID_ARGS'] },
      '$.retryOn lists "INVALID_ARGS", which is never retried (the call was stopped, refused or is invalid): remove it'],
  ])('rejects %j at load with a message naming the key', async (config, message) => {
    const { ctx, fork } = await load(config)
    expect(fork.error?.message).toBe(message)
    expect(ctx.tools.chain('tools/execute')).toEqual([])
  })
})
