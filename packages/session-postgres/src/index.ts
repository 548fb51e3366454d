/**
 * `@rein/session-postgres`: a rein session log in PostgreSQL. Appends are durable when they
 * resolve, numbered in call order, and stored whole or not at all; one writer per session is
 * enforced by the database (a session-level advisory lock on the writer's connection).
 *
 *   const session = postgresSession({ connectionString: process.env.REIN_DATABASE_URL!, id: 'run-42' })
 *   const agent = createAgent(ctx, { provider, session })
 */
export { postgresSession, type PostgresSessionStore } from './postgres-session.js'
export { migrate, type MigrateResult } from './schema.js'
export { MAX_SESSION_ID_LENGTH, sessionIdProblem } from './session-id.js'
export { PostgresSessionError, type PostgresSessionCode } from './errors.js'
export type { PostgresSessionOptions, MigrateOptions, PostgresConnection, TableOptions } from './options.js'
