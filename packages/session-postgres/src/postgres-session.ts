/**
 * A session in PostgreSQL, one row per entry. The store opens the session on its first call
 * (see `writer.ts`: a dedicated connection holding the session's writer lock) and numbers
 * entries in the order `append` was called. Appends are grouped: every entry queued while a
 * write is in flight, or by the promise reactions that ran before the next write started, goes
 * out in the next single INSERT, one transaction, and each append resolves only once that
 * transaction has committed (flushed to disk: synchronous_commit on). An entry's shape is
 * checked when it is appended; its JSON is written as its batch is taken, as the JSONL store
 * does: an entry JSON cannot hold, one too big for a row (`entry-size.ts`), or an approval
 * entry that breaks the rules of approvals after what the session holds (`ApprovalLedger`, which
 * a load checks too), is then refused alone and the rest of the batch goes on, so that a
 * batch's results cost no serializing before the model's next request.
 * A batch is stored whole or not at all. After any failure (the server down, the connection
 * lost, a write refused) every append in flight and every later call rejects: nothing is
 * dropped silently and nothing is written after a gap. `close()` waits for the appends in
 * flight, releases the session and closes the connection; the store is then closed for good:
 * a later `load` or `append` rejects (`SESSION_WRITE_FAILED`, "the store is closed") instead of
 * opening the session again behind its owner's back.
 */
import { newEntryProblem, type ApprovalLedger, type NewSessionEntry, type SessionEntry, type SessionStore } from '@rein/agent'
import { entryColumns, type EntryColumns } from './entry-json.js'
import { BATCH_BYTES, ELEMENT_BYTES, entrySizeProblem, jsonbBytes, limits } from './entry-size.js'
import { PostgresSessionError, connectionLost, entryInvalid, sessionName, storeClosed, writeFailed } from './errors.js'
import { settingsOf, type PostgresSessionOptions, type Settings } from './options.js'
import { sessionIdProblem } from './session-id.js'
import { openWriter, type Writer } from './writer.js'
import { readEntries } from './read-entries.js'
import { sharedAccess } from './shared-access.js'

// One INSERT carries at most this much (one entry bigger than that goes alone); more waits for the next.
const MAX_BATCH_ENTRIES = 1000
const MAX_BATCH_CHARS = 16 * 1024 * 1024

interface Pending {
  entry: NewSessionEntry
  resolve: (entry: SessionEntry) => void
  reject: (error: unknown) => void
  /** Its columns, once written (by a batch it did not fit in). */
  sized?: Sized
}

/** An entry's columns, and an upper bound on its size as jsonb (`entry-size.ts`). */
interface Sized {
  columns: EntryColumns
  jsonb: number
}

/** An append taken into a batch, with its columns written. */
interface Taken extends Pending {
  sized: Sized
}

/**
 * A SessionStore whose `close()` is always there (it lets go of the session), and whose `peek`
 * and `appendAfter` are too: until the store's first `load` or `append` opens the session for
 * writing they take no lock and hold no connection of a pool (`shared-access.ts`); after, they
 * go through the writer.
 */
export type PostgresSessionStore = SessionStore & Required<Pick<SessionStore, 'close' | 'peek' | 'appendAfter'>>

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
  // Reads and answers while this store is not the writer (`peek`, `appendAfter`).
  const shared = sharedAccess(settings, id)

  const openOnce = (withEntries = false) => {
    if (opening) return opening
    const mine = ++generation
    const onLost = (error: Error) => {
      if (mine === generation) failure ??= connectionLost(settings, id, error)
    }
    opening = openWriter(settings, id, onLost, withEntries).then((writer) => {
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
      if (failure) {
        for (const p of queue.splice(0)) p.reject(failure)
        continue
      }
      const batch = takeBatch(queue, writer.ledger, id)
      if (batch.length === 0) continue
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
      const writer = await openOnce(true)
      while (flushing) await flushing
      if (failure) throw failure
      // The entries read as the session was opened, while nothing was appended since: once.
      const { entries } = writer
      writer.entries = undefined
      if (entries && lastSeq === writer.lastSeq) return entries
      return readEntries(writer.client, settings, id)
    },
    append(entry) {
      if (closed) return Promise.reject(storeClosed(id))
      const problem = newEntryProblem(entry)
      if (problem !== undefined) return Promise.reject(entryInvalid(id, problem))
      if (failure) return Promise.reject(failure)
      return new Promise<SessionEntry>((resolve, reject) => {
        queue.push({ entry, resolve, reject })
        kick()
      })
    },
    async peek() {
      if (closed) throw storeClosed(id)
      if (failure) throw failure
      // This store's own writer, once open, is the session's only writer: read through it.
      if (opening) return this.load()
      return shared.peek()
    },
    async appendAfter(entry, after) {
      if (closed) throw storeClosed(id)
      const checked = checkedColumns(entry, id)
      if (checked instanceof Error) throw checked
      if (failure) throw failure
      if (!opening) return shared.appendAfter(entry, checked, after)
      await openOnce()
      while (flushing) await flushing
      if (failure) throw failure
      // Checked and queued in one go: no other append of this store can come in between.
      if (queue.length > 0 || lastSeq !== after) return undefined
      return this.append(entry)
    },
    async close() {
      closed = true // appends already made are still stored; nothing after this is
      while (flushing) await flushing
      const writer = await opening?.catch(() => undefined)
      opening = undefined
      generation++
      await Promise.all([writer?.close(), shared.close()])
    },
  }
}

/** `entry` as its columns, or the `ENTRY_INVALID` error saying why it cannot be stored (it could not be read back). */
function checkedColumns(entry: NewSessionEntry, id: string): EntryColumns | PostgresSessionError {
  // Not `sessionEntryProblem` of a copy with a `seq`: checking a spread copy took 2-3 µs per entry, the entry itself 0.1-0.4.
  const problem = newEntryProblem(entry)
  if (problem !== undefined) return entryInvalid(id, problem)
  const sized = sizedColumns(entry, id)
  return sized instanceof PostgresSessionError ? sized : sized.columns
}

/**
 * The columns of an entry whose shape was checked, or the `ENTRY_INVALID` error of one JSON
 * cannot hold (a bigint, a cycle) or too big for a row (`entry-size.ts`).
 */
function sizedColumns(entry: NewSessionEntry, id: string): Sized | PostgresSessionError {
  let columns: EntryColumns
  try {
    columns = entryColumns(entry)
  } catch (error) {
    return entryInvalid(id, `it cannot be written as JSON (${(error as Error).message})`)
  }
  const jsonb = jsonbBytes(columns.entry)
  const problem = entrySizeProblem(columns.entry, columns.entryText, jsonb)
  return problem === undefined ? { columns, jsonb } : entryInvalid(id, problem)
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

/**
 * The next batch, its columns written: the oldest appends, up to the size one INSERT carries
 * (its entries one jsonb array that PostgreSQL can hold); an entry bigger than that goes alone.
 * An append JSON cannot hold, too big for a row, or breaking the rules of approvals after the
 * entries before it (`ledger`, which takes in each entry taken) is refused here and left out
 * (the batch may come out empty).
 */
function takeBatch(queue: Pending[], ledger: ApprovalLedger, id: string): Taken[] {
  const batch: Taken[] = []
  let chars = 0
  let jsonb = BATCH_BYTES
  let n = 0
  for (; n < queue.length && batch.length < MAX_BATCH_ENTRIES; n++) {
    const pending = queue[n]
    const sized = pending.sized ?? sizedColumns(pending.entry, id)
    if (sized instanceof PostgresSessionError) {
      pending.reject(sized)
      continue
    }
    const size = sized.columns.entry.length + (sized.columns.entryText?.length ?? 0)
    if (batch.length > 0 && (chars + size > MAX_BATCH_CHARS || jsonb + ELEMENT_BYTES + sized.jsonb > limits.jsonbBytes)) {
      pending.sized = sized // left in the queue, its columns written, to lead the next batch
      break
    }
    // The ledger reads no `seq`: the entry is checked as it stands, and taken in when it passes.
    const problem = ledger.problem(pending.entry as SessionEntry)
    if (problem !== undefined) {
      pending.reject(entryInvalid(id, `${problem}; a load would refuse the session after it`))
      continue
    }
    chars += size
    jsonb += ELEMENT_BYTES + sized.jsonb
    batch.push(Object.assign(pending, { sized }))
  }
  queue.splice(0, n)
  return batch
}

/**
 * One INSERT for the batch, numbered from `first`. It stores nothing unless this connection
 * still holds the session's writer lock: a shared transaction lock on the same key is granted
 * to the holder and refused while any other connection holds it (as when a pooler in
 * transaction mode runs this on another backend than the one that took the lock). The check
 * is a subquery, asked once for the whole statement, so the batch is stored whole or not at all.
 */
async function insert(writer: Writer, settings: Settings, id: string, first: number, batch: Taken[]): Promise<void> {
  // The entries go as one JSON array, not a text[] of JSON texts: no escaping each one into an
  // array literal on this side, one jsonb parse on the server's (docs/performance.md). The exact
  // texts go as a text[] only when some entry keeps one; ROWS FROM pads the shorter list with NULL.
  const texts = batch.some((p) => p.sized.columns.entryText !== null) ? batch.map((p) => p.sized.columns.entryText) : null
  const { rowCount } = await writer.client.query(
    `INSERT INTO ${settings.qualified} (session_id, seq, entry, entry_text)
     SELECT $1, $2::bigint + e.n - 1, e.entry, e.entry_text
       FROM ROWS FROM (jsonb_array_elements($3::jsonb), unnest($4::text[])) WITH ORDINALITY AS e(entry, entry_text, n)
      WHERE (SELECT pg_try_advisory_xact_lock_shared($5::bigint))`,
    [id, first, `[${batch.map((p) => p.sized.columns.entry).join(',')}]`, texts, writer.key.toString()])
  if (rowCount !== batch.length) {
    throw new PostgresSessionError('SESSION_WRITE_FAILED',
      `postgres ${sessionName(id)}: this store's connection no longer holds the session's writer lock (another connection does); ` +
      'nothing of this append was stored. Connect directly or through session pooling (a pooler in transaction mode cannot keep the lock)')
  }
}
