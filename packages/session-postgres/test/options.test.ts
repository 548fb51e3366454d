import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { secretLeaks } from '@rein/testing'
import { MAX_SESSION_ID_LENGTH, migrate, postgresSession, sessionIdProblem, type PostgresSessionOptions } from '../src/index.js'
import { settingsOf } from '../src/options.js'

const URL = 'postgres://app:s3cr%40t@db.example:6543/sessions'
const refused = (options: unknown) => () => postgresSession(options as PostgresSessionOptions)

describe('postgresSession options, checked when the store is made', () => {
  it('needs exactly one of connectionString and pool', () => {
    const fix = 'give exactly one of "connectionString" (postgres://user:password@host:port/database) or "pool" (a pg Pool)'
    expect(refused({ id: 'a' })).toThrow(`postgresSession: ${fix}`)
    expect(refused({ id: 'a', connectionString: URL, pool: new pg.Pool() })).toThrow(`postgresSession: ${fix}`)
    expect(refused({ id: 'a', pool: {} })).toThrow('postgresSession: "pool" must be a pg Pool (new pg.Pool({ ... })), got object')
    expect(refused({ id: 'a', connectionString: ' ' })).toThrow('postgresSession: "connectionString" must be a non-empty string')
  })

  it('needs a session id', () => {
    expect(refused({ connectionString: URL })).toThrow('postgresSession: "id" must be a non-empty string naming the session, got undefined')
    expect(refused({ connectionString: URL, id: '' })).toThrow('got an empty string')
    expect(refused({ connectionString: URL, id: 'x'.repeat(513) })).toThrow('postgresSession: "id" must be at most 512 characters, got 513')
  })

  it('refuses an id PostgreSQL would not store as given: a lone surrogate (stored as U+FFFD, another id) or U+0000', () => {
    expect(refused({ connectionString: URL, id: 'alias:\uD800' })).toThrow(
      'postgresSession: "id" must be well-formed Unicode, but has a lone surrogate (U+D800 at index 6), ' +
      'which PostgreSQL would store as U+FFFD: the id would name another session')
    expect(refused({ connectionString: URL, id: '\uDFFFx' })).toThrow('lone surrogate (U+DFFF at index 0)')
    expect(refused({ connectionString: URL, id: 'a\uD800\uD800\uDC00' })).toThrow('lone surrogate (U+D800 at index 1)')
    expect(refused({ connectionString: URL, id: 'a\u0000b' })).toThrow(
      'postgresSession: "id" must not contain U+0000 (at index 1): PostgreSQL text cannot hold it')
  })

  it('takes any other id of up to 512 UTF-16 code units: U+FFFD, emoji, right-to-left marks, quotes', () => {
    for (const id of ['alias:\uFFFD', '😀'.repeat(256), '\u202Eabc', "x'); DROP TABLE t; --", 'x'.repeat(MAX_SESSION_ID_LENGTH)]) {
      expect(sessionIdProblem(id)).toBeUndefined()
      expect(postgresSession({ connectionString: URL, id })).toBeDefined()
    }
    expect(sessionIdProblem('😀'.repeat(257))).toBe('must be at most 512 characters, got 514')
  })

  it('takes schema and table only as plain identifiers, showing what was given', async () => {
    expect(refused({ connectionString: URL, id: 'a', table: 'x; DROP TABLE y' })).toThrow(
      'postgresSession: "table" must be a plain SQL identifier (a letter or _, then letters, digits or _; at most 63), got "x; DROP TABLE y"')
    expect(refused({ connectionString: URL, id: 'a', schema: 'a'.repeat(64) })).toThrow('"schema" must be a plain SQL identifier')
    await expect(migrate({ connectionString: URL, table: 7 as unknown as string })).rejects.toThrow('migrate: "table" must be a plain SQL identifier')
  })

  it('takes connectTimeoutMs only as a whole number of ms', () => {
    expect(refused({ connectionString: URL, id: 'a', connectTimeoutMs: 0 })).toThrow(
      'postgresSession: "connectTimeoutMs" must be a whole number of ms above 0, got 0')
  })

  it('refuses a connection string it cannot read without quoting it', () => {
    const bad = 'postgres://app:s3cr3t-pw@db.example:notaport/sessions'
    const error = (() => { try { refused({ connectionString: bad, id: 'a' })() } catch (e) { return e } })()
    expect((error as Error).message).toBe('postgresSession: the connection string could not be read; expected ' +
      'postgres://user:password@host:port/database (characters such as @ : / in the password URL-encoded)')
    expect(secretLeaks(error, 's3cr3t-pw', bad)).toEqual([])
  })

  it('names the server by host, port and database, and knows every form of the password to hide', () => {
    const settings = settingsOf({ connectionString: URL }, 'test')
    expect(settings).toMatchObject({ target: 'db.example:6543/sessions', qualified: '"public"."rein_session_entries"', connectTimeoutMs: 10_000 })
    expect(settings.secrets).toEqual(expect.arrayContaining(['s3cr@t', 's3cr%40t', URL]))
    const pool = new pg.Pool({ host: 'pool.example', port: 7000, database: 'd', password: 'pw' })
    expect(settingsOf({ pool, table: 'log', schema: 'agents' }, 'test')).toMatchObject({
      target: 'pool.example:7000/d', qualified: '"agents"."log"', secrets: expect.arrayContaining(['pw']),
    })
  })
})
