/**
 * An entry too big for a row (over PostgreSQL's 268,435,455 bytes of jsonb) is refused alone
 * with `ENTRY_INVALID`, and its batch and the store go on. The size bound is checked against
 * what PostgreSQL itself makes of JSON texts (`pg_column_size`); the refusal is tested at a
 * lowered limit, so no test needs gigabytes.
 */
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import type { NewSessionEntry } from '@rein/agent'
import { entrySizeProblem, jsonbBytes, limits, valueBytes } from '../src/entry-size.js'
import { postgresSession } from '../src/index.js'
import { TABLE, describeWithPostgres, newId, rejection, storedEntries } from './helpers.js'

const DEFAULTS = { ...limits }
afterEach(() => { Object.assign(limits, DEFAULTS) })

const user = (content: string): NewSessionEntry => ({ type: 'message', message: { role: 'user', content } })

/** JSON texts that make the most jsonb per character: small numbers, empty containers, empty keys, deep nesting. */
const DENSE = [
  `[${Array(5000).fill('1').join(',')}]`, `[${Array(5000).fill('0').join(',')}]`, `[${Array(3000).fill('-0.1').join(',')}]`,
  `[${Array(3000).fill('[]').join(',')}]`, `[${Array(3000).fill('{}').join(',')}]`, `[${Array(3000).fill('""').join(',')}]`,
  `{${Array.from({ length: 2000 }, (_, i) => `"${i}":0`).join(',')}}`, `${'['.repeat(2000)}${']'.repeat(2000)}`,
  `[${Array(2000).fill('1.7976931348623157e308').join(',')}]`, `[${Array(2000).fill('5e-324').join(',')}]`,
  `[${Array(2000).fill('-123456789.12345678').join(',')}]`, `{"s":"${'\\u001f'.repeat(1000)}","t":"é😀\\n"}`, '{}', '[0]', '0',
]

describe('entry sizes', () => {
  it('measures strings in UTF-8 bytes and containers with their headers', () => {
    expect(valueBytes('é😀')).toBe(6)
    expect(valueBytes([])).toBe(7)
    expect(valueBytes({ ab: 'cd' })).toBe(7 + 8 + 2 + 2)
    expect(valueBytes(null) + valueBytes(true)).toBe(0)
  })

  it('walks only a text too long for the quick bound (8 bytes a character)', () => {
    expect(jsonbBytes('{"a":"bc"}')).toBe(8 * 10 + 16)
    limits.jsonbBytes = 1000
    expect(jsonbBytes(JSON.stringify({ s: 'x'.repeat(500) }))).toBe(valueBytes({ s: 'x'.repeat(500) }))
  })

  it('at PostgreSQL\'s own limit, refuses what cannot fit a batch of its own (its count, its header) and takes what can', () => {
    expect(entrySizeProblem('{}', null, 268_435_455 - 11)).toBeUndefined()
    expect(entrySizeProblem('{}', null, 268_435_455 - 10)).toMatch(/^it is too big for PostgreSQL's jsonb: up to 268435445 bytes as jsonb, over the 268435455 /)
  })

  it('refuses what cannot fit a batch of its own, and a text over the limit one entry may send', () => {
    limits.jsonbBytes = 1000
    expect(entrySizeProblem('{}', null, 989)).toBeUndefined()
    expect(entrySizeProblem('{}', null, 990)).toBe('it is too big for PostgreSQL\'s jsonb: up to 990 bytes as jsonb, over the 1000 a jsonb value may hold')
    limits.textBytes = 9
    expect(entrySizeProblem('{"a":"é"}', null, 10)).toBe('it is too big to send to PostgreSQL: 10 bytes of JSON text, over the 9 one entry may take')
    expect(entrySizeProblem('{"a":1}', null, 10)).toBeUndefined()
    expect(entrySizeProblem('{"a":1}', '{"a":1}', 10)).toMatch(/14 bytes of JSON text/)
  })
})

describeWithPostgres('entry sizes against PostgreSQL', (db) => {
  // A scalar at the root is stored as an array of one (an entry is always an object).
  const rootBytes = (value: unknown) => valueBytes(typeof value === 'object' && value !== null ? value : [value])
  /** What PostgreSQL's jsonb makes of `text`, in bytes, without the 4-byte varlena header. */
  const actual = async (text: string) => (await db().admin.query('SELECT pg_column_size($1::jsonb) - 4 AS n', [text])).rows[0].n as number

  it('bounds the jsonb PostgreSQL makes, by both the quick bound and the walk', async () => {
    const texts = [...DENSE, ...fc.sample(fc.json({ depthSize: 'medium' }), 150)]
    for (const text of texts) {
      const bytes = await actual(text)
      expect(bytes, text.slice(0, 60)).toBeLessThanOrEqual(rootBytes(JSON.parse(text)))
      expect(bytes, text.slice(0, 60)).toBeLessThanOrEqual(8 * text.length + 16)
    }
  })

  const open = (id: string) => postgresSession({ connectionString: db().server.url, id })

  it('refuses an entry too big alone, storing the rest of its batch without a gap, and goes on', async () => {
    limits.jsonbBytes = 20_000
    const id = newId()
    const store = open(id)
    await store.load()
    const appends = [store.append(user('before')), store.append(user('x'.repeat(30_000))), store.append(user('after'))]
    const settled = await Promise.allSettled(appends)
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    const refused = (settled[1] as PromiseRejectedResult).reason
    expect(refused).toMatchObject({ code: 'ENTRY_INVALID' })
    expect(refused.message).toMatch(new RegExp(`^session entry not appended to postgres session "${id}": it is too big for PostgreSQL's jsonb: up to \\d+ bytes as jsonb, over the 20000`))
    expect((await store.append(user('later'))).seq).toBe(3)
    await store.close()
    expect((await storedEntries(db().admin, id)).map((e) => (e as { message: { content: string } }).message.content)).toEqual(['before', 'after', 'later'])
  })

  it('refuses one too big in appendAfter too, with or without the writer', async () => {
    limits.jsonbBytes = 20_000
    const id = newId()
    const reader = open(id)
    expect((await rejection(reader.appendAfter(user('x'.repeat(30_000)), 0))).code).toBe('ENTRY_INVALID')
    const writer = open(id)
    await writer.load()
    expect((await rejection(writer.appendAfter(user('x'.repeat(30_000)), 0))).code).toBe('ENTRY_INVALID')
    expect(await writer.appendAfter(user('fits'), 0)).toMatchObject({ seq: 1 })
    await Promise.all([reader.close(), writer.close()])
  })

  it('splits a batch whose entries together would not fit one jsonb array: each goes in an INSERT of its own', async () => {
    limits.jsonbBytes = 100_000
    const id = newId()
    const store = open(id)
    await store.load()
    const big = () => store.append(user('y'.repeat(6_000))) // 8 bytes a character: about 48,000 each
    expect((await Promise.all([big(), big(), big()])).map((e) => e.seq)).toEqual([1, 2, 3])
    await store.close()
    const { rows } = await db().admin.query(`SELECT count(*)::int AS n FROM ${TABLE} WHERE session_id = $1 GROUP BY xmin::text`, [id])
    expect(rows.map((r) => r.n).sort()).toEqual([1, 2])
  })
})
