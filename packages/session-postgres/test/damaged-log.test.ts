/**
 * A damaged log (rows edited by hand, a bad restore) is a clear `SESSION_DAMAGED` on every way
 * in: `load`, `peek`, and an `append` made without a `load` first, which stores nothing after
 * it. The error names the seq and what is wrong, never what the row holds (it may be a secret).
 */
import { expect, it } from 'vitest'
import type { NewSessionEntry } from '@rein/agent'
import { migrate, postgresSession } from '../src/index.js'
import { TABLE, describeWithPostgres, newId, rejection } from './helpers.js'

const user = (content: string): NewSessionEntry => ({ type: 'message', message: { role: 'user', content } })
const SECRET = 'sk-live-SECRET-TOKEN-0123456789'

describeWithPostgres('postgresSession on a damaged log', (db) => {
  const open = (id: string) => postgresSession({ connectionString: db().server.url, id })

  const seqs = async (id: string) =>
    (await db().admin.query(`SELECT seq FROM ${TABLE} WHERE session_id = $1 ORDER BY seq`, [id])).rows.map((r) => Number(r.seq))

  /** Session `id` with these rows, as a hand edit leaves them: `[seq, entry, entry_text]`. */
  async function rows(id: string, ...stored: [number, object, string?][]): Promise<void> {
    await migrate({ connectionString: db().server.url })
    for (const [seq, entry, text] of stored) {
      await db().admin.query(`INSERT INTO ${TABLE} (session_id, seq, entry, entry_text) VALUES ($1, $2, $3, $4)`,
        [id, seq, JSON.stringify(entry), text ?? null])
    }
  }

  it('refuses an append made without a load after an invalid entry, storing nothing, and every later call', async () => {
    const id = newId()
    await rows(id, [1, user('a')], [2, { type: 'message', turn: 'two', message: { role: 'user', content: 'x' } }])
    const store = open(id)
    const refused = await rejection(store.append(user('b')))
    expect(refused.code).toBe('SESSION_DAMAGED')
    expect(refused.message).toBe(`${TABLE} session "${id}" seq 2: "turn" must be a whole number of at least 1, got a string`)
    await expect(store.append(user('c'))).rejects.toBe(refused)
    await expect(store.appendAfter(user('d'), 2)).rejects.toBe(refused)
    await store.close()
    expect(await seqs(id)).toEqual([1, 2])
  })

  it('refuses an appendAfter that opens the writer over an invalid entry', async () => {
    const id = newId()
    await rows(id, [1, { type: 'turn/end', turn: 0, outcome: 'committed' }])
    const store = open(id)
    await expect(store.append(user('opens the writer'))).rejects.toMatchObject({ code: 'SESSION_DAMAGED' })
    await expect(store.appendAfter(user('b'), 1)).rejects.toMatchObject({ code: 'SESSION_DAMAGED' })
    await store.close()
    expect(await seqs(id)).toEqual([1])
  })

  it('refuses an exact text that is not JSON as damage at its seq, on load, peek and append, never quoting it', async () => {
    const id = newId()
    await rows(id, [1, user('a')], [2, user('\ufffd'), `${SECRET} was here`])
    const expected = `${TABLE} session "${id}" seq 2: "entry_text" is not valid JSON (its text is not shown here: it may hold a secret)`
    const errors = []
    for (const call of [(s: ReturnType<typeof open>) => s.load(), (s: ReturnType<typeof open>) => s.peek(), (s: ReturnType<typeof open>) => s.append(user('b'))]) {
      const store = open(id)
      errors.push(await rejection(call(store)))
      await store.close()
    }
    for (const error of errors) {
      expect(error).toMatchObject({ name: 'PostgresSessionError', code: 'SESSION_DAMAGED', message: expected })
      expect(error.cause).toBeUndefined()
      expect(JSON.stringify([error.message, error.stack])).not.toMatch(/sk-live|Unexpected token|not valid JSON at/)
    }
    expect(await seqs(id)).toEqual([1, 2])
  })

  it('refuses a torn exact text the same way, through a writer that loaded first', async () => {
    const id = newId()
    const store = open(id)
    await store.append(user('a'))
    await db().admin.query(`INSERT INTO ${TABLE} (session_id, seq, entry, entry_text) VALUES ($1, 2, $2, $3)`,
      [id, JSON.stringify(user('x')), `{"type":"message","message":{"role":"user","content":"${SECRET}`])
    const refused = await rejection(store.load())
    await store.close()
    expect(await seqs(id)).toEqual([1, 2])
    expect(refused).toMatchObject({ code: 'SESSION_DAMAGED', message: `${TABLE} session "${id}" seq 2: "entry_text" is not valid JSON (its text is not shown here: it may hold a secret)` })
  })

  it('opens a new session with the same one statement as before: an append on it costs nothing more', async () => {
    const id = newId()
    await migrate({ connectionString: db().server.url })
    const statements: string[] = []
    const store = open(id)
    const { default: pg } = await import('pg')
    const query = pg.Client.prototype.query
    pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
      if (typeof args[0] === 'string') statements.push(args[0])
      return (query as (...a: unknown[]) => unknown).apply(this, args)
    } as typeof query
    try {
      expect((await store.append(user('a'))).seq).toBe(1)
    } finally {
      pg.Client.prototype.query = query
    }
    await store.close()
    // Connection settings and lock; reading the session; the INSERT.
    expect(statements.map((s) => s.trim().split(/\s+/)[0])).toEqual(['SELECT', 'SELECT', 'INSERT'])
  })
})
