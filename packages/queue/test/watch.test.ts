/**
 * A waiting submitter that misses its run's end event: the event was trimmed from the stream
 * while the submitter was behind, or Redis restarted without its data. Both are made here
 * without timing: the job is moved to `completed` behind the events' back (as a trimmed stream
 * leaves it to a reader that fell behind), or Redis is emptied; the wait, reading the job's
 * state again every 20 ms, must end either way rather than hang.
 */
import { Queue } from 'bullmq'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { JOB_NAME, type RunJobData, type RunResult } from '../src/index.js'
import { newJobId } from '../src/job.js'
import { PREFIX } from '../src/options.js'
import { JOB_LOST, RunWatcher } from '../src/watch.js'
import { describeWithServers, newQueue, newSession } from './servers.js'

describeWithServers('a wait that misses its run\'s end event', (servers) => {
  let queue: Queue<RunJobData, RunResult>
  let redis: Redis
  let watcher: RunWatcher
  beforeAll(async () => {
    queue = new Queue(newQueue(), { connection: { url: servers().redis.url, maxRetriesPerRequest: null }, prefix: PREFIX })
    redis = new Redis(servers().redis.url)
    watcher = await RunWatcher.open(queue, redis, servers().redis.url, 20)
  })
  afterAll(async () => {
    await watcher?.close()
    await queue?.close()
    redis?.disconnect()
  })

  /** A queued job, waited for, its state read once (as `submit` does right after adding it). */
  async function waitedFor() {
    const job = await queue.add(JOB_NAME, { session: newSession(), task: 't' }, { jobId: newJobId() })
    const watch = watcher.wait(job.id!)
    await watcher.check(job.id!)
    return { id: job.id!, watch }
  }

  it('ends with the stored result of a job that completed with no event the wait could read', async () => {
    const { id, watch } = await waitedFor()
    const stored: RunResult = { kind: 'completed', text: 'the answer', worker: 'w', attempts: 1 }
    await redis.multi()
      .lrem(queue.keys.wait, 0, id)
      .zadd(queue.keys.completed, Date.now(), id)
      .hset(queue.toKey(id), 'returnvalue', JSON.stringify(stored), 'finishedOn', Date.now())
      .exec()

    expect(await watch.result).toEqual(stored)
  }, 10_000)

  it('ends with JOB_LOST when Redis lost the job (restarted without its data)', async () => {
    const { id, watch } = await waitedFor()
    await redis.flushdb()

    expect(await watch.result).toMatchObject({
      kind: 'error', code: JOB_LOST, error: expect.stringContaining(`job ${id} is gone from Redis before its end was seen`),
    })
  }, 10_000)
})
