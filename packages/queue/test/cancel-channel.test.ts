import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedis, whyNoRedis, type RedisServer } from '@rein/testing'
import { CANCELLED, CancelListener, requestCancel } from '../src/cancel-channel.js'
import { keysOf } from '../src/options.js'
import { openConnection } from '../src/redis.js'

const missing = whyNoRedis()
if (missing) console.warn(`cancel channel: skipped, ${missing}`)

describe.skipIf(missing !== undefined)('the cancel channel', () => {
  let redis: RedisServer
  beforeAll(async () => { redis = await startRedis() }, 30_000)
  afterAll(async () => { await redis?.close() })

  it("aborts the run of the cancelled job on the worker that has it, and leaves a marker for a worker that has not", async () => {
    const keys = keysOf({ redis: redis.url, queue: 'cancels' }, 'test')
    const listener = await CancelListener.open(redis.url, keys)
    const publisher = openConnection(redis.url)
    const mine = new AbortController()
    const other = new AbortController()
    listener.track('run-1', mine)
    listener.track('run-2', other)
    const aborted = new Promise((resolve) => mine.signal.addEventListener('abort', resolve))

    expect(await requestCancel(publisher, keys, 'run-1')).toBe(1)
    await aborted
    expect(mine.signal.reason).toBe(CANCELLED)
    expect(other.signal.aborted).toBe(false)
    expect(await listener.requested('run-1')).toBe(true)
    expect(await listener.requested('run-2')).toBe(false)
    await listener.close()
    await publisher.quit()
  })

  it('a run that is no longer tracked is not aborted', async () => {
    const keys = keysOf({ redis: redis.url, queue: 'untracked' }, 'test')
    const listener = await CancelListener.open(redis.url, keys)
    const publisher = openConnection(redis.url)
    const run = new AbortController()
    listener.track('run-3', run)()
    await requestCancel(publisher, keys, 'run-3')
    await sleep(100)
    expect(run.signal.aborted).toBe(false)
    await listener.close()
    await publisher.quit()
  })
})
