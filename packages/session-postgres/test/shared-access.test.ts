/**
 * `peek` and `appendAfter` of a store that is not its session's writer (`shared-access.ts`):
 * they take no lock and keep no pooled connection, an append lands only right after the entry
 * it names and only while no writer holds the session, and of answers racing from many stores
 * exactly one lands.
 */
import fc from 'fast-check'
import pg from 'pg'
import { expect, it } from 'vitest'
import { answerApproval, pendingApprovals, type NewSessionEntry } from '@rein/agent'
import { postgresSession } from '../src/index.js'
import { describeWithPostgres, newId, rejection, storedEntries, writerPid } from './helpers.js'

const user = (content: string): NewSessionEntry => ({ type: 'message', message: { role: 'user', content } })

/** A run parked on one call: what a worker leaves in the session before it lets go. */
const PARKED: NewSessionEntry[] = [
  user('go'),
  { type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'push', arguments: '{}' }] } },
  { type: 'approval/request', id: 'apr_1', turn: 1, index: 0, callId: 'c1', tool: 'push', arguments: {}, rule: 'push-rule', reason: 'pushes' },
]

describeWithPostgres('postgresSession: peek and appendAfter without a writer', (db) => {
  const open = (id: string) => postgresSession({ connectionString: db().server.url, id })

  async function written(entries: NewSessionEntry[]): Promise<string> {
    const id = newId()
    const writer = open(id)
    for (const entry of entries) await writer.append(entry)
    await writer.close()
    return id
  }

  it('peeks what is stored and appends right after it, holding no lock: a writer opens at once after', async () => {
    const id = await written([user('a'), user('b')])
    const reader = open(id)
    expect((await reader.peek()).map((e) => e.seq)).toEqual([1, 2])
    expect(await reader.appendAfter(user('c'), 2)).toMatchObject({ seq: 3, message: { content: 'c' } })
    expect(await writerPid(db().admin, id)).toBeUndefined()
    const writer = open(id)
    expect((await writer.load()).map((e) => (e as { message: { content: string } }).message.content)).toEqual(['a', 'b', 'c'])
    await writer.append(user('d'))
    await Promise.all([writer.close(), reader.close()])
    expect(await storedEntries(db().admin, id)).toHaveLength(4)
  })

  it('writes nothing and resolves undefined when the entry it follows is no longer the last', async () => {
    const id = await written([user('a'), user('b')])
    const reader = open(id)
    expect(await reader.appendAfter(user('late'), 1)).toBeUndefined()
    expect(await reader.appendAfter(user('ahead'), 3)).toBeUndefined()
    await reader.close()
    expect(await storedEntries(db().admin, id)).toHaveLength(2)
  })

  it('refuses while another store holds the session for writing, writing nothing, and names the holder', async () => {
    const id = await written([user('a')])
    const writer = open(id)
    await writer.load()
    const reader = open(id)
    expect(await reader.peek()).toHaveLength(1) // reading is never refused
    const error = await rejection(reader.appendAfter(user('b'), 1))
    expect(error.code).toBe('SESSION_LOCKED')
    expect(error.message).toMatch(/rein pid \d+/)
    await writer.append(user('from the writer'))
    await Promise.all([writer.close(), reader.close()])
    expect((await storedEntries(db().admin, id)).map((e) => (e as { seq: number }).seq)).toEqual([1, 2])
  })

  it('goes through its own writer once it has one', async () => {
    const id = await written([user('a')])
    const store = open(id)
    await store.load()
    expect(await store.appendAfter(user('b'), 1)).toMatchObject({ seq: 2 })
    expect(await store.appendAfter(user('stale'), 1)).toBeUndefined()
    expect(await store.peek()).toHaveLength(2)
    await store.close()
    expect(await storedEntries(db().admin, id)).toHaveLength(2)
  })

  it('refuses an entry that could not be read back, and everything once closed', async () => {
    const id = await written([user('a')])
    const store = open(id)
    expect((await rejection(store.appendAfter({ type: 'nonsense' } as unknown as NewSessionEntry, 1))).code).toBe('ENTRY_INVALID')
    await store.close()
    expect((await rejection(store.peek())).message).toMatch(/closed/)
    expect((await rejection(store.appendAfter(user('b'), 1))).message).toMatch(/closed/)
    expect(await storedEntries(db().admin, id)).toHaveLength(1)
  })

  it('finds an empty session where no table is yet, and creates none', async () => {
    const store = postgresSession({ connectionString: db().server.url, id: newId(), table: 'never_made' })
    expect(await store.peek()).toEqual([])
    await expect(answerApproval(store, 'apr_1', 'deny')).rejects.toThrow(/no approval request "apr_1"/)
    await store.close()
    const { rows } = await db().admin.query("SELECT to_regclass('public.never_made') AS found")
    expect(rows[0].found).toBeNull()
  })

  it('on a pool, borrows a connection per statement and sets nothing on it', async () => {
    const id = await written(PARKED)
    const pool = new pg.Pool({ connectionString: db().server.url, max: 1 })
    try {
      const store = postgresSession({ pool, id })
      expect(await pendingApprovals(store)).toMatchObject([{ id: 'apr_1' }])
      expect(pool.idleCount).toBe(pool.totalCount) // nothing held between statements
      await answerApproval(store, 'apr_1', 'deny', { by: 'ops' })
      expect(await pendingApprovals(store)).toEqual([])
      const { rows } = await pool.query("SELECT current_setting('application_name') AS name")
      expect(rows[0].name).not.toMatch(/^rein pid/)
      await store.close()
      expect(pool.totalCount).toBe(1) // the pool's connection is still there: not ended by the store
    } finally {
      await pool.end()
    }
  })

  it('of answers racing from many stores, exactly one lands; the others are refused and write nothing', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.constantFrom('allow-once', 'allow-session', 'deny') as fc.Arbitrary<'allow-once' | 'allow-session' | 'deny'>, { minLength: 2, maxLength: 6 }),
      async (answers) => {
        const id = await written(PARKED)
        const stores = answers.map(() => open(id))
        const outcomes = await Promise.allSettled(answers.map((answer, i) => answerApproval(stores[i], 'apr_1', answer, { by: `p${i}` })))
        await Promise.all(stores.map((store) => store.close()))
        const landed = outcomes.filter((o) => o.status === 'fulfilled')
        expect(landed).toHaveLength(1)
        for (const o of outcomes) if (o.status === 'rejected') expect(String(o.reason)).toMatch(/already answered/)
        const stored = await storedEntries(db().admin, id)
        expect(stored.map((e) => (e as { type: string }).type)).toEqual(['message', 'message', 'approval/request', 'approval/answer'])
        expect(stored[3]).toMatchObject({ ...(landed[0] as PromiseFulfilledResult<object>).value })
      }), { numRuns: 8 })
  })
})
