import { describe, expect, it } from 'vitest'
import { postgresTarget, redisTarget } from '../src/index.js'
import { keysOf, redactRedis } from '../src/options.js'

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
