import { hostname } from 'node:os'
import pg from 'pg'
import { expect, it } from 'vitest'
import { postgresSession } from '../src/index.js'
import { sessionKey } from '../src/lock-key.js'
import { TABLE, describeWithPostgres, killWriter, newId, rejection, storedEntries } from './helpers.js'

const note = (turn: number) => ({ type: 'turn/end' as const, turn, outcome: 'committed' as const })
const turns = (entries: object[]) => entries.map((e) => (e as { turn: number }).turn)

describeWithPostgres('one writer per session', (db) => {
  const open = (id: string) => postgresSession({ connectionString: db().server.url, id })

  it('refuses a second writer with an error naming the holder, and keeps the first one\'s entries whole', async () => {
    const id = newId()
    const first = open(id)
    await first.append(note(1))
    await first.append(note(2))
    const pool = new pg.Pool({ connectionString: db().server.url })
    const second = postgresSession({ pool, id })
    const refused = await rejection(second.load())
    expect(refused).toMatchObject({ name: 'PostgresSessionError', code: 'SESSION_LOCKED' })
    expect((refused as Error).message).toMatch(new RegExp(
      `^session "${id}" is already open for writing by another process \\(rein pid ${process.pid} on ${hostname()}; ` +
      'PostgreSQL backend \\d+, client 127\\.0\\.0\\.1\\); one writer at a time: close that store or end its process'))
    await expect(second.append(note(99))).rejects.toMatchObject({ code: 'SESSION_LOCKED' })
    await first.append(note(3))
    expect(turns(await storedEntries(db().admin, id))).toEqual([1, 2, 3])
    await first.close?.()
    await second.close?.()
    await pool.end()
  })

  it('lets exactly one of several writers racing to open a session win', async () => {
    const id = newId()
    const stores = Array.from({ length: 6 }, () => open(id))
    const outcomes = await Promise.allSettled(stores.map((store) => store.append(note(1))))
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason.code)).toEqual(Array(5).fill('SESSION_LOCKED'))
    expect(turns(await storedEntries(db().admin, id))).toEqual([1])
    await Promise.all(stores.map((store) => store.close?.()))
  })

  it('is free for the next writer as soon as the first one closes', async () => {
    const id = newId()
    const first = open(id)
    await first.append(note(1))
    await first.close?.()
    const next = open(id)
    expect((await next.append(note(2))).seq).toBe(2)
    await next.close?.()
  })

  it('stays closed after close(): a later append or load rejects, stores nothing, and leaves the session free', async () => {
    const id = newId()
    const store = open(id)
    await store.append(note(1))
    await store.close?.()
    const closed = `postgres session "${id}": the store is closed; nothing was read or stored: open the session again with a new postgresSession()`
    await expect(store.append(note(2))).rejects.toMatchObject({ name: 'PostgresSessionError', code: 'SESSION_WRITE_FAILED', message: closed })
    await expect(store.load()).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED', message: closed })
    const next = open(id)
    expect(turns(await next.load())).toEqual([1])
    expect((await next.append(note(2))).seq).toBe(2)
    await store.close?.()
    expect((await next.append(note(3))).seq).toBe(3)
    await next.close?.()
    expect(turns(await storedEntries(db().admin, id))).toEqual([1, 2, 3])
  })

  it('is released when the writer\'s connection is dropped: another resumes, and the dead one stores nothing more', async () => {
    const id = newId()
    const first = open(id)
    await first.append(note(1))
    await killWriter(db().admin, id)
    const next = open(id)
    expect(turns(await next.load())).toEqual([1])
    expect((await next.append(note(2))).seq).toBe(2)
    await expect(first.append(note(99))).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' })
    await expect(first.load()).rejects.toThrow('was lost')
    expect(turns(await storedEntries(db().admin, id))).toEqual([1, 2])
    await next.close?.()
    await first.close?.()
  })

  it('stores nothing when its connection no longer holds the lock and another does (as behind a pooler in transaction mode)', async () => {
    const id = newId()
    const clients: pg.Client[] = []
    class Recorded extends pg.Client {
      constructor(config: pg.ClientConfig) {
        super(config)
        clients.push(this)
      }
    }
    const pool = new pg.Pool({ connectionString: db().server.url, max: 1, Client: Recorded as unknown as new () => pg.ClientBase })
    const store = postgresSession({ pool, id })
    await store.append(note(1))
    await clients[0].query('SELECT pg_advisory_unlock_all()')
    const thief = await db().admin.connect()
    await thief.query('SELECT pg_advisory_lock($1::bigint)', [sessionKey(TABLE, id).toString()])
    await expect(store.append(note(2))).rejects.toThrow(
      `postgres session "${id}": this store's connection no longer holds the session's writer lock (another connection does); nothing of this append was stored`)
    expect(turns(await storedEntries(db().admin, id))).toEqual([1])
    thief.release(true)
    await store.close?.()
    await pool.end()
  })
})
