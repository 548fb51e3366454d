/**
 * Which session `rein approvals` and `rein approve` work on. Locally, a JSONL file: the path of
 * `--session`, else the `session:` of the config file (`-c`, default ./rein.yaml), which is
 * what `rein run` writes to. On a fleet (`--postgres` or `--redis` given), `--session` is the id
 * of a session in PostgreSQL (`--postgres`, else REIN_DATABASE_URL). A file that is not there
 * is an error, never created; listing a file reads it without taking its writer lock.
 */
import { stat } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import type { SessionStore } from '@rein/agent'
import { stringOption, UsageError, type Parsed } from '../command.js'
import type { Io } from '../io.js'
import { queueModule } from '../queue-module.js'
import { postgresUrl } from '../commands/db.js'

/** A session opened for `rein approvals` (reading) or `rein approve` (writing). */
export interface ApprovalSession {
  store: SessionStore
  /** How messages name it: `session.jsonl`, or `session "ticket-1" (PostgreSQL at host:5432/db)`. */
  label: string
  /** The options that name it again on a `rein approve` command line. */
  flags: string[]
  /** For a fleet session: its id and the PostgreSQL it lives in. */
  fleet?: { id: string, postgres: string }
  close(): Promise<void>
}

/** Opens the session the command line names; `write` for `rein approve` (takes the writer lock). */
export async function openApprovalSession(args: Parsed, io: Io, command: string, { write }: { write: boolean }): Promise<ApprovalSession> {
  const session = stringOption(args, 'session')
  if (stringOption(args, 'postgres') !== undefined || stringOption(args, 'redis') !== undefined) {
    if (session === undefined) throw new UsageError(`rein ${command}: --session <id> is required with --postgres or --redis: the id the run was submitted with`)
    const postgres = postgresUrl(args, io, command)
    const { postgresSession, postgresTarget, sessionIdProblem } = await queueModule()
    const problem = sessionIdProblem(session)
    if (problem !== undefined) throw new UsageError(`rein ${command}: --session ${problem}`)
    const store = postgresSession({ connectionString: postgres, id: session })
    return {
      store, fleet: { id: session, postgres },
      label: `session ${JSON.stringify(session)} (PostgreSQL at ${postgresTarget(postgres)})`,
      flags: ['--session', session, ...(io.env.REIN_DATABASE_URL ? [] : ['--postgres', '<url>'])],
      close: () => store.close(),
    }
  }
  const { path, flags } = await localPath(args, io, command, session)
  const label = relative(io.cwd, path) || path
  if (!await isFile(path)) {
    throw new Error(`no session file at ${label}${session === undefined ? ' (the "session" of the config file)' : ''}: ` +
      'pass the --session a run wrote to (rein run --session <path>), or --postgres with a session id for a fleet')
  }
  const agent = await import('@rein/agent')
  if (write) {
    const store = agent.jsonlSession(path)
    return { store, label, flags, close: async () => { await store.close?.() } }
  }
  const store: SessionStore = {
    id: path,
    load: async () => (await agent.readSession(path)).entries,
    append: () => Promise.reject(new Error(`rein ${command} only reads ${label}`)),
  }
  return { store, label, flags, close: async () => {} }
}

/** The JSONL path: `--session`, else the config file's `session`. */
async function localPath(args: Parsed, io: Io, command: string, session: string | undefined): Promise<{ path: string, flags: string[] }> {
  if (session !== undefined) return { path: resolve(io.cwd, session), flags: ['--session', session] }
  const config = stringOption(args, 'config')
  const file = resolve(io.cwd, config ?? 'rein.yaml')
  const { readConfig } = await import('@rein/loader')
  const { session: path } = await readConfig(file, { env: io.env })
  if (path === undefined) {
    throw new UsageError(`rein ${command}: no session named: pass --session <path> (the JSONL file rein run wrote), ` +
      `or give ${relative(io.cwd, file) || file} a "session" path; a run whose session is kept in memory cannot be answered later`)
  }
  return { path, flags: config === undefined ? [] : ['-c', config] }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

/** `word` as one shell word: as is when plain, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w./:@%+=,-]+$/.test(word) || /^<\w+>$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}
