import { createServer, type Server } from 'node:net'
import { setImmediate as tick } from 'node:timers/promises'
import { expect, it } from 'vitest'
import { secretLeaks } from '@rein/testing'
import { postgresSession, type PostgresSessionError } from '../src/index.js'
import { describeWithPostgres, newId, rejection, storedEntries } from './helpers.js'

const PASSWORD = 'p@ss:w/rd%20#?&=1'
const entry = (i: number) => ({ type: 'message' as const, message: { role: 'user' as const, content: `${i} ${'x'.repeat(2_000)}` } })

/** A 127.0.0.1 port nothing listens on, or one a silent server holds (it accepts and never answers). */
async function port(silent = false): Promise<{ port: number, server?: Server }> {
  const server = createServer(() => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  if (silent) return { port, server }
  await new Promise((resolve) => server.close(resolve))
  return { port }
}

describeWithPostgres('when PostgreSQL is unavailable', (db) => {
  it('rejects appends when the server stops mid-append; what was stored is whole, in order, and nothing after a failure', async () => {
    const { server, admin } = db()
    const id = newId()
    const store = postgresSession({ connectionString: server.url, id })
    // Each outcome is taken as it settles (a rejection left waiting would count as unhandled).
    const appends: Promise<PromiseSettledResult<unknown>>[] = []
    for (let i = 0; i < 5; i++) await store.append(entry(i))
    // Appends keep coming, a few at a time, while the server is stopped once 20 have been stored.
    let stored = 0
    let stopped = false
    const stopping = (async () => {
      while (stored < 20) await tick()
      await server.stop('immediate')
      stopped = true
    })()
    for (let i = 5; !stopped; i++) {
      appends.push(Promise.allSettled([store.append(entry(i))]).then(([outcome]) => {
        if (outcome.status === 'fulfilled') stored++
        return outcome
      }))
      if (i % 3 === 0) await tick()
    }
    await stopping
    const outcomes = await Promise.all(appends)
    const firstRejected = outcomes.findIndex((o) => o.status === 'rejected')
    expect(firstRejected).toBeGreaterThan(-1)
    expect(outcomes.slice(firstRejected).every((o) => o.status === 'rejected')).toBe(true)
    const error = (outcomes[firstRejected] as PromiseRejectedResult).reason as PostgresSessionError
    expect(error.code).toBe('SESSION_WRITE_FAILED')
    expect(error.message).toContain(`PostgreSQL at 127.0.0.1:${server.port}/postgres`)
    expect(secretLeaks(error, server.password)).toEqual([])

    await server.start()
    const inTable = await storedEntries(admin, id)
    const acknowledged = 5 + firstRejected
    expect(acknowledged).toBeGreaterThanOrEqual(25)
    expect(inTable.length).toBeGreaterThanOrEqual(acknowledged)
    expect(inTable).toEqual(inTable.map((_, i) => ({ ...entry(i), seq: i + 1 })))
    await expect(store.append(entry(999))).rejects.toBe(error)
    await store.close?.()
    const resumed = postgresSession({ connectionString: server.url, id })
    expect((await resumed.append(entry(inTable.length))).seq).toBe(inTable.length + 1)
    await resumed.close?.()
  })

  it('refuses every later call once the server went away between appends, and a new store resumes after it is back', async () => {
    const { server } = db()
    const id = newId()
    const store = postgresSession({ connectionString: server.url, id })
    await store.append(entry(0))
    await server.stop('fast')
    const error = await rejection(store.append(entry(1)))
    expect(error.message).toMatch(new RegExp(`^postgres session "${id}": (the connection to|an append to) PostgreSQL at 127\\.0\\.0\\.1:${server.port}/postgres`))
    await server.start()
    await expect(store.append(entry(2))).rejects.toBe(error)
    await store.close?.()
    const resumed = postgresSession({ connectionString: server.url, id })
    expect((await resumed.load()).map((e) => e.seq)).toEqual([1])
    await resumed.close?.()
  })

  it('names host:port when nothing listens there, stores nothing, and never shows the password', async () => {
    const { port: closed } = await port()
    const url = `postgres://writer:${encodeURIComponent(PASSWORD)}@127.0.0.1:${closed}/sessions`
    const store = postgresSession({ connectionString: url, id: 'a' })
    const error = await rejection(store.load())
    expect(error).toMatchObject({ code: 'POSTGRES_UNAVAILABLE' })
    expect(error.message).toBe(`postgres session "a": cannot connect to PostgreSQL at 127.0.0.1:${closed}/sessions ` +
      `(connect ECONNREFUSED 127.0.0.1:${closed}); nothing was stored: check that the server is running and reachable, and the user and password`)
    await expect(store.append(entry(0))).rejects.toMatchObject({ code: 'POSTGRES_UNAVAILABLE' })
    expect(secretLeaks(error, PASSWORD, encodeURIComponent(PASSWORD), url)).toEqual([])
  })

  it('says why when localhost has several addresses and none answers', async () => {
    const { port: closed } = await port()
    const error = await rejection(postgresSession({ connectionString: `postgres://writer:${encodeURIComponent(PASSWORD)}@localhost:${closed}/db`, id: 'a' }).load())
    expect(error.message).toMatch(new RegExp(`cannot connect to PostgreSQL at localhost:${closed}/db \\(.*ECONNREFUSED.*\\)`))
    expect(secretLeaks(error, PASSWORD, encodeURIComponent(PASSWORD))).toEqual([])
  })

  it('gives up on a server that never answers after connectTimeoutMs', async () => {
    const { port: silent, server } = await port(true)
    const store = postgresSession({ connectionString: `postgres://writer:${encodeURIComponent(PASSWORD)}@127.0.0.1:${silent}/db`, id: 'a', connectTimeoutMs: 300 })
    await expect(store.load()).rejects.toThrow(`cannot connect to PostgreSQL at 127.0.0.1:${silent}/db (`)
    server?.close()
  })

  it('says the password was refused, without showing it', async () => {
    const { server, admin } = db()
    await admin.query(`CREATE ROLE writer LOGIN PASSWORD '${PASSWORD}'`)
    const wrong = `${PASSWORD}-wrong`
    const url = `postgres://writer:${encodeURIComponent(wrong)}@127.0.0.1:${server.port}/postgres`
    const error = await rejection(postgresSession({ connectionString: url, id: 'a' }).load())
    expect(error.message).toContain(`cannot connect to PostgreSQL at 127.0.0.1:${server.port}/postgres (password authentication failed for user "writer")`)
    expect(secretLeaks(error, wrong, encodeURIComponent(wrong), PASSWORD, url)).toEqual([])
  })
})
