/**
 * The table the entries live in, created when missing: by a store on its first use, or ahead
 * of time by `migrate` (which needs the rights to create; a store then needs none). Creating it
 * is idempotent and safe when many processes start at once: the check and the `CREATE` run in
 * one transaction under a transaction-scoped advisory lock, so they take turns and the later
 * ones find the table there. A store that finds the table skips all of this.
 */
import type { ClientBase } from 'pg'
import { connect } from './connection.js'
import { PostgresSessionError, reasonOf, safeCause } from './errors.js'
import { advisoryKey } from './lock-key.js'
import { settingsOf, type MigrateOptions, type Settings } from './options.js'

/** What `migrate` did. */
export interface MigrateResult {
  /** `"schema"."table"`. */
  table: string
  /** True when this call created the table; false when it was already there. */
  created: boolean
}

/**
 * Creates the session table (and its schema) when missing, for deployments that set up the
 * database ahead of time. Safe to run again, and from several processes at once.
 */
export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const settings = settingsOf(options, 'migrate')
  const connection = await connect(settings, () => {}).catch((error) => {
    throw new PostgresSessionError('POSTGRES_UNAVAILABLE',
      `migrate: cannot connect to PostgreSQL at ${settings.target} (${reasonOf(error, settings)}); nothing was created`, safeCause(error, settings))
  })
  try {
    return { table: settings.qualified, created: await createTable(connection.client, settings) }
  } finally {
    await connection.end()
  }
}

/** Makes sure the table exists; cheap when it does. */
export async function ensureTable(client: ClientBase, settings: Settings): Promise<void> {
  if (!(await tableExists(client, settings))) await createTable(client, settings)
}

async function tableExists(client: ClientBase, settings: Settings): Promise<boolean> {
  const { rows } = await client.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [settings.qualified])
  return rows[0].found !== null
}

/** Creates the table unless another process has; true when this call created it. */
async function createTable(client: ClientBase, settings: Settings): Promise<boolean> {
  const { schema, qualified } = settings
  try {
    await client.query('BEGIN')
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [advisoryKey(`rein.migrate:${qualified}`).toString()])
    if (await tableExists(client, settings)) {
      await client.query('COMMIT')
      return false
    }
    // CREATE SCHEMA asks for the right to create schemas even when it exists: only run it when missing.
    const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])
    if (rowCount === 0) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`)
    await client.query(`CREATE TABLE IF NOT EXISTS ${qualified} (
      session_id  text        NOT NULL,
      seq         bigint      NOT NULL CHECK (seq > 0),
      entry       jsonb       NOT NULL,
      entry_text  text,
      appended_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (session_id, seq)
    )`)
    await client.query(`COMMENT ON TABLE ${qualified} IS 'rein session log, format 1: one row per entry, seq 1, 2, 3... per session_id'`)
    await client.query(`COMMENT ON COLUMN ${qualified}.entry_text IS ` +
      '\'the entry as exact JSON text, only when it holds text jsonb cannot (U+0000, unpaired surrogates); entry then holds a copy with U+FFFD in their place\'')
    await client.query('COMMIT')
    return true
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}
