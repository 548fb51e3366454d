import { randomUUID } from 'node:crypto'
import { expect, it } from 'vitest'
import { migrate, postgresSession } from '../src/index.js'
import { describeWithPostgres, newId, rejection, storedEntries } from './helpers.js'

const note = (turn: number) => ({ type: 'turn/end' as const, turn, outcome: 'committed' as const })
const fresh = () => `t_${randomUUID().replaceAll('-', '')}`

describeWithPostgres('the session table', (db) => {
  it('is created by migrate once; later calls find it there', async () => {
    const table = fresh()
    expect(await migrate({ connectionString: db().server.url, table })).toEqual({ table: `"public"."${table}"`, created: true })
    expect(await migrate({ connectionString: db().server.url, table })).toEqual({ table: `"public"."${table}"`, created: false })
    const { rows } = await db().admin.query(
      'SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position', [table])
    expect(rows.map((r) => `${r.column_name} ${r.data_type}`)).toEqual([
      'session_id text', 'seq bigint', 'entry jsonb', 'entry_text text', 'appended_at timestamp with time zone'])
  })

  it('is created exactly once when several migrations run at once', async () => {
    const table = fresh()
    const results = await Promise.all(Array.from({ length: 5 }, () => migrate({ connectionString: db().server.url, table })))
    expect(results.filter((r) => r.created)).toHaveLength(1)
  })

  it('is created on first use, even by many stores at once, each on its own session', async () => {
    const table = fresh()
    const stores = Array.from({ length: 8 }, () => postgresSession({ connectionString: db().server.url, id: newId(), table }))
    expect((await Promise.all(stores.map((store) => store.append(note(1))))).map((e) => e.seq)).toEqual(Array(8).fill(1))
    await Promise.all(stores.map((store) => store.close?.()))
  })

  it('can live in a schema of its own, which migrate creates', async () => {
    const schema = fresh()
    await migrate({ connectionString: db().server.url, schema, table: 'log' })
    const id = newId()
    const store = postgresSession({ connectionString: db().server.url, id, schema, table: 'log' })
    await store.append(note(1))
    await store.close?.()
    expect(await storedEntries(db().admin, id, `"${schema}"."log"`)).toEqual([{ ...note(1), seq: 1 }])
  })

  it('made ahead by migrate, serves a user who may not create tables; without it that user is told what to do', async () => {
    const { server, admin } = db()
    const table = fresh()
    await admin.query(`CREATE ROLE ${table}_app LOGIN PASSWORD 'app-pw'`)
    const url = `postgres://${table}_app:app-pw@127.0.0.1:${server.port}/postgres`
    const missing = await rejection(postgresSession({ connectionString: url, id: 'a', table }).load())
    expect(missing.message).toBe(`postgres session "a": could not make sure the table "public"."${table}" exists at 127.0.0.1:${server.port}/postgres ` +
      '(permission denied for schema public); nothing was stored: create it ahead with migrate() as a user allowed to, or name a schema this user may create in')
    await migrate({ connectionString: server.url, table })
    await admin.query(`GRANT SELECT, INSERT ON "${table}" TO ${table}_app`)
    const store = postgresSession({ connectionString: url, id: 'a', table })
    expect((await store.append(note(1))).seq).toBe(1)
    await store.close?.()
  })
})
