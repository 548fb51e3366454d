/**
 * A session in PostgreSQL, one row per entry. The store opens the session on its first call
 * (see `writer.ts`: a dedicated connection holding the session's writer lock) and numbers
 * entries in the order `append` was called. Appends are grouped: every entry queued while a
 * write is in flight, or by the promise reactions that ran before the next write started, goes
 * out in the next single INSERT, one transaction, and each append resolves only once that
 * transaction has committed (flushed to disk: synchronous_commit on).
 * A batch is stored whole or not at all. After any failure (the server down, the connection
 * lost, a write refused) every append in flight and every later call rejects: nothing is
 * dropped silently and nothing is written after a gap. `close()` waits for the appends in
 * flight, releases the session and closes the connection; the store is then closed for good:
 * a later `load` or `append` rejects (`SESSION_WRITE_FAILED`, "the store is closed") instead of
 * opening the session again behind its owner's back.
 */
import { sessionEntryProblem, type NewSessionEntry, type SessionEntry, type SessionStore } from '@rein/agent'
import { entryColumns, entryOf } from './entry-json.js'
import { PostgresSessionError, connectionLost, reasonOf, safeCause, sessionName, storeClosed, writeFailed } from './errors.js'
import { settingsOf, type PostgresSessionOptions, type Settings } from './options.js'
import { sessionIdProblem } from './session-id.js'
import { openWriter, type Writer } from './writer.js'

// One INSERT carries at most this much; more waits for the next (a statement's parameters are capped at 1 GB).
const MAX_BATCH_ENTRIES = 1000
const MAX_BATCH_CHARS = 16 * 1024 * 1024

interface Pending {
  entry: NewSessionEntry
  columns: { entry: string, entryText: string | null }
  resolve: (entry: SessionEntry) => void
  reject: (error: unknown) => void
}

/** A SessionStore whose `close()` is always there: it lets go of the session. */
export type PostgresSessionStore = SessionStore & { close(): Promise<void> }

/**
 * The session `id`, stored in PostgreSQL. Options are checked here (a bad one throws at once);
 * the server is first contacted by the first `load` or `append`.
 */
export function postgresSession(options: PostgresSessionOptions): PostgresSessionStore {
  const settings = settingsOf(options, 'postgresSession')
  const id = sessionIdOf(options)
  let opening: Promise<Writer> | undefined
  // Each open is a generation: a late error from a connection already closed changes nothing.
  let generation = 0
  let lastSeq = 0
  let failure: Error | undefined
  let flushing: Promise<void> | undefined
  let closed = false
  const queue: Pending[] = []

  const openOnce = () => {
    if (opening) return opening
    const mine = ++generation
    const onLost = (error: Error) => {
      if (mine === generation) failure ??= connectionLost(settings, id, error)
    }
    opening = openWriter(settings, id, onLost).then((writer) => {
      lastSeq = writer.lastSeq
      return writer
    }, (error) => {
      opening = undefined // nothing was stored: a later call may try again
      throw error
    })
    return opening
  }

  const flush = async () => {
    let writer: Writer
    try {
      writer = await openOnce()
    } catch (error) {
      failure ??= error as Error
      for (const p of queue.splice(0)) p.reject(failure)
      return
    }
    while (queue.length > 0) {
      // Let what the last commit set going (the next calls of a batch, their results) queue up
      // first, so that one INSERT carries all of it (the agent's `group-commit.ts` says why).
      await afterMicrotasks()
      const batch = failure ? queue.splice(0) : takeBatch(queue)
      if (failure) {
        for (const p of batch) p.reject(failure)
        continue
      }
      const first = lastSeq + 1
      try {
        await insert(writer, settings, id, first, batch)
      } catch (error) {
        failure ??= error instanceof PostgresSessionError ? error : writeFailed(settings, id, error)
        for (const p of batch) p.reject(failure)
        continue
      }
      lastSeq += batch.length
      batch.forEach((p, i) => p.resolve(Object.assign({}, p.entry, { seq: first + i }) as SessionEntry))
    }
  }

  const kick = () => {
    flushing ??= flush().finally(() => {
      flushing = undefined
      if (queue.length > 0) kick()
    })
  }

  return {
    id,
    async load() {
      if (closed) throw storeClosed(id)
      if (failure) throw failure
      const writer = await openOnce()
      while (flushing) await flushing
      if (failure) throw failure
      return loadEntries(writer, settings, id)
    },
    append(entry) {
      if (closed) return Promise.reject(storeClosed(id))
      // Never store an entry that could not be read back: it would refuse the whole session later.
      let problem = sessionEntryProblem(typeof entry === 'object' && entry !== null ? { ...entry, seq: 1 } : entry)
      let columns: Pending['columns'] | undefined
      if (problem === undefined) {
        try {
          columns = entryColumns(entry)
        } catch (error) {
          problem = `it cannot be written as JSON (${(error as Error).message})`
        }
      }
      if (problem !== undefined || columns === undefined) {
        return Promise.reject(new PostgresSessionError('ENTRY_INVALID', `session entry not appended to postgres ${sessionName(id)}: ${problem}`))
      }
      if (failure) return Promise.reject(failure)
      return new Promise<SessionEntry>((resolve, reject) => {
        queue.push({ entry, columns, resolve, reject })
        kick()
      })
    },
    async close() {
      closed = true // appends already made are still stored; nothing after this is
      while (flushing) await flushing
      const writer = await opening?.catch(() => undefined)
      opening = undefined
      generation++
      await writer?.close()
    },
  }
}

/** Resolves after the promise reactions queued now, and those they queue, have run. */
function afterMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/** The session id, or a TypeError naming the rule it breaks (`session-id.ts`). */
function sessionIdOf(options: PostgresSessionOptions): string {
  const id = (options as { id?: unknown }).id
  const problem = sessionIdProblem(id)
  if (problem !== undefined) throw new TypeError(`postgresSession: "id" ${problem}`)
  return id as string
}

/** The next batch: the oldest appends, up to the size one INSERT carries (at least one). */
function takeBatch(queue: Pending[]): Pending[] {
  let chars = 0
  let n = 0
  while (n < queue.length && n < MAX_BATCH_ENTRIES && chars < MAX_BATCH_CHARS) {
    chars += queue[n].columns.entry.length + (queue[n].columns.entryText?.length ?? 0)
    n++
  }
  return queue.splice(0, n)
}

/**
 * One INSERT for the batch, numbered from `first`. It stores nothing unless this connection
 * still holds the session's writer lock: a shared transaction lock on the same key is granted
 * to the holder and refused while any other connection holds it (as when a pooler in
 * transaction mode runs this on another backend than the one that took the lock). The check
 * is a subquery, asked once for the whole statement, so the batch is stored whole or not at all.
 */
async function insert(writer: Writer, settings: Settings, id: string, first: number, batch: Pending[]): Promise<void> {
  // The entries go as one JSON array, not a text[] of JSON texts: no escaping each one into an
  // array literal on this side, one jsonb parse on the server's (docs/performance.md). The exact
  // texts go as a text[] only when some entry keeps one; ROWS FROM pads the shorter list with NULL.
  const texts = batch.some((p) => p.columns.entryText !== null) ? batch.map((p) => p.columns.entryText) : null
  const { rowCount } = await writer.client.query(
    `INSERT INTO ${settings.qualified} (session_id, seq, entry, entry_text)
     SELECT $1, $2::bigint + e.n - 1, e.entry, e.entry_text
       FROM ROWS FROM (jsonb_array_elements($3::jsonb), unnest($4::text[])) WITH ORDINALITY AS e(entry, entry_text, n)
      WHERE (SELECT pg_try_advisory_xact_lock_shared($5::bigint))`,
    [id, first, `[${batch.map((p) => p.columns.entry).join(',')}]`, texts, writer.key.toString()])
  if (rowCount !== batch.length) {
    throw new PostgresSessionError('SESSION_WRITE_FAILED',
      `postgres ${sessionName(id)}: this store's connection no longer holds the session's writer lock (another connection does); ` +
      'nothing of this append was stored. Connect directly or through session pooling (a pooler in transaction mode cannot keep the lock)')
  }
}

/** Every entry, in `seq` order, each checked; throws `SESSION_DAMAGED` at the first that is not valid. */
async function loadEntries(writer: Writer, settings: Settings, id: string): Promise<SessionEntry[]> {
  let rows: { seq: string, entry: unknown, entry_text: string | null }[]
  try {
    ({ rows } = await writer.client.query(
      `SELECT seq, entry, entry_text FROM ${settings.qualified} WHERE session_id = $1 ORDER BY seq`, [id]))
  } catch (error) {
    throw new PostgresSessionError('SESSION_WRITE_FAILED',
      `postgres ${sessionName(id)}: reading the session from PostgreSQL at ${settings.target} failed (${reasonOf(error, settings)})`,
      safeCause(error, settings))
  }
  const entries: SessionEntry[] = []
  for (const row of rows) {
    const seq = Number(row.seq)
    const value = entryOf(row.entry, row.entry_text)
    const entry = typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value, seq } : value
    const problem = sessionEntryProblem(entry, entries.at(-1)?.seq ?? 0)
    if (problem !== undefined) {
      throw new PostgresSessionError('SESSION_DAMAGED', `${settings.qualified} ${sessionName(id)} seq ${seq}: ${problem}`)
    }
    entries.push(entry as SessionEntry)
  }
  return entries
}
