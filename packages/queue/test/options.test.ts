import { describe, expect, it } from 'vitest'
import { createWorker, postgresTarget, redisTarget, type HarnessFactory } from '../src/index.js'
import { count, keysOf, postgresUrlProblem, redactRedis } from '../src/options.js'
import { quietly } from '../src/worker.js'

describe('how servers are named in errors', () => {
  it('names Redis and PostgreSQL as host:port/db, without user or password', () => {
    expect(redisTarget('redis://:s3cret@cache.internal:6380/2')).toBe('cache.internal:6380/2')
    expect(redisTarget('redis://127.0.0.1')).toBe('127.0.0.1:6379/0')
    expect(postgresTarget('postgres://rein:s3cret@db.internal/agents')).toBe('db.internal:5432/agents')
  })

  it('cuts the password out of a message, plain and URL-encoded, and any user:password@', () => {
    const url = 'redis://u:p%40ss%2Fw0rd@h:1/0'
    expect(redactRedis('failed: p@ss/w0rd and p%40ss%2Fw0rd at redis://u:p%40ss%2Fw0rd@h:1/0', url))
      .toBe('failed: *** and *** at redis://***@h:1/0')
  })
})

describe('queue options, checked when made', () => {
  it('names the queue, its cancel channel and its markers under the rein prefix', () => {
    const keys = keysOf({ redis: 'redis://h', queue: 'agents' }, 'test')
    expect([keys.name, keys.cancelChannel, keys.cancelMarker('run-1')]).toEqual(['agents', 'rein:agents:cancel', 'rein:agents:cancelled:run-1'])
    expect(keysOf({ redis: 'redis://h' }, 'test').name).toBe('runs')
  })

  it('refuses a queue name Redis keys should not hold, and a URL that is not Redis', () => {
    expect(() => keysOf({ redis: 'redis://h', queue: 'a:b' }, 'test')).toThrow('test: "queue" must be 1-100 letters, digits, ".", "_" or "-", got "a:b"')
    expect(() => keysOf({ redis: 'http://h' }, 'test')).toThrow('test: the Redis URL must start with redis:// or rediss://, got "http:"')
    expect(() => keysOf({ redis: '' }, 'test')).toThrow('"redis" must name the Redis server')
  })
})

describe('bounds a worker checks before it connects', () => {
  const base = { redis: 'redis://127.0.0.1:1', postgres: 'postgres://u:p@127.0.0.1:1/db', harness: (async () => ({})) as unknown as HarnessFactory }

  it('refuses a lock duration or stalled interval beyond what a Node.js timer can wait (it would fire after 1 ms)', async () => {
    await expect(createWorker({ ...base, lockDurationMs: 2 ** 31 })).rejects.toMatchObject({
      code: 'OPTIONS_INVALID', message: 'createWorker: "lockDurationMs" must be a whole number from 100 to 2147483647, got 2147483648',
    })
    await expect(createWorker({ ...base, stalledIntervalMs: 3_000_000_000 })).rejects.toMatchObject({
      code: 'OPTIONS_INVALID', message: 'createWorker: "stalledIntervalMs" must be a whole number from 100 to 2147483647, got 3000000000',
    })
    await expect(createWorker({ ...base, concurrency: 1e21 })).rejects.toMatchObject({ code: 'OPTIONS_INVALID' })
    expect(() => count('test', 'n', 11, 1, 1, 10)).toThrow('test: "n" must be a whole number from 1 to 10, got 11')
    expect(count('test', 'n', 10, 1, 1, 10)).toBe(10)
  })

  it('says a PostgreSQL URL is malformed instead of looking for a host named after it', async () => {
    expect(postgresUrlProblem('not a url')).toBe('is not a URL; write it as postgres://user:password@host:port/db')
    expect(postgresUrlProblem('http://h/db')).toBe('must start with postgres:// or postgresql://, got "http:"')
    expect(['postgres://u:p@h:5/db', 'postgresql://h/db', '/var/run/postgresql db'].map(postgresUrlProblem)).toEqual([undefined, undefined, undefined])
    await expect(createWorker({ ...base, postgres: 'not a url' })).rejects.toMatchObject({
      code: 'POSTGRES_UNAVAILABLE',
      message: 'createWorker: the PostgreSQL URL is not a URL; write it as postgres://user:password@host:port/db (--postgres or REIN_DATABASE_URL)',
    })
  })

  it('logs a connection error as retried, and a lost job lock as what it is (nothing retries it)', () => {
    const lines: string[] = []
    const onError = quietly((line) => lines.push(line), 'redis://:s3cret@h:1')
    onError(new Error('connect ECONNREFUSED 127.0.0.1:1'))
    onError(new Error('Missing lock for job run-1. moveToFinished'))
    expect(lines[0]).toBe('redis: connect ECONNREFUSED 127.0.0.1:1; retrying')
    expect(lines[1]).toMatch(/^redis: Missing lock for job run-1\. moveToFinished: not retried; this worker no longer holds the job/)
    expect(lines[1]).not.toContain('retrying')
  })
})
