import { expect, it } from 'vitest'
import { postgresSession } from '@rein/session-postgres'
import { SessionPool } from '../src/session-pool.js'
import { describeWithServers, newSession } from './servers.js'

describeWithServers('SessionPool: connections kept between the runs of a worker', (servers) => {
  const backendOf = async (client: { query: (sql: string) => Promise<{ rows: any[] }> }) =>
    (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number

  it('keeps a connection given back, reset: no advisory lock and no setting of its last user survives', async () => {
    const pool = new SessionPool(servers().postgres.url, 1)
    const first = await pool.connect()
    const pid = await backendOf(first)
    await first.query("SELECT pg_advisory_lock(4711), set_config('application_name', 'last user', false)")
    first.release(true)

    const second = await pool.connect()
    expect(await backendOf(second)).toBe(pid) // the same connection, not a new one
    const { rows } = await second.query("SELECT count(*)::int AS locks, current_setting('application_name') AS name FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'advisory'")
    expect(rows[0]).toEqual({ locks: 0, name: '' })
    second.release(true)
    await pool.end()
  })

  it('closes a connection given back with an error instead of keeping it', async () => {
    const pool = new SessionPool(servers().postgres.url, 1)
    const first = await pool.connect()
    const pid = await backendOf(first)
    first.release(new Error('broken'))
    const second = await pool.connect()
    expect(await backendOf(second)).not.toBe(pid)
    second.release(true)
    await pool.end()
  })

  it('one writer per session still holds: a session held through the pool is refused elsewhere, and free once its store closes', async () => {
    const pool = new SessionPool(servers().postgres.url, 1)
    const id = newSession('pooled')
    const store = postgresSession({ pool, id })
    await store.append({ type: 'message', message: { role: 'user', content: 'hello' } })
    const other = postgresSession({ connectionString: servers().postgres.url, id })
    await expect(other.load()).rejects.toMatchObject({ code: 'SESSION_LOCKED' })
    await store.close()

    expect(await other.load()).toMatchObject([{ seq: 1, type: 'message' }])
    await other.close()
    const again = postgresSession({ pool, id: newSession('pooled') })
    expect(await again.load()).toEqual([]) // the kept connection serves the next session
    await again.close()
    await pool.end()
  })
})
