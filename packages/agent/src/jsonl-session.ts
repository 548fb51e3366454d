/**
 * A session in a JSONL file: one entry per line, append-only. Appends are grouped: every
 * entry queued while a write is in flight goes out in the next write, followed by one
 * fdatasync, and each append resolves only after every byte of its line is written and the
 * sync that covers it is done. So a `tool/call` is on disk before its body runs, and the file
 * survives `kill -9` at any instant: a torn last line (a write cut short) was never
 * acknowledged; it is left out when the file is read, and cut off, by byte count, before the
 * store's first write (a store that only reads changes nothing in the file). A write that fails or
 * stops short (a full disk, a file size limit) is cut off again at once, back to the end of
 * the last acknowledged entry, its entries are rejected and the store refuses every later
 * append. Any other damage refuses the whole file, which is then left as it is. No append
 * writes what a load would refuse: an entry of the wrong shape, one that JSON cannot carry, or
 * an approval entry that breaks the rules of approvals after what the file holds is rejected,
 * writing nothing of it, and the store goes on.
 *
 * One writer per file: the store holds `<file>.lock` while it is open (`session-lock.ts`).
 * The file must be a regular file; it is created 0600 and the folders made for it 0700: it
 * holds the transcript, secrets the model saw included.
 */
import type { FileHandle } from 'node:fs/promises'
import { writeSync } from 'node:fs'
import { realpath } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ApprovalLedger } from './approval-entries.js'
import { afterMicrotasks } from './group-commit.js'
import { makeFolders, openSessionFile, readAll, writeAll } from './jsonl-file.js'
import type { NewSessionEntry, SessionEntry, SessionStore } from './session.js'
import { newEntryProblem } from './session-entry.js'
import { parseSessionLog } from './session-file.js'
import { takeWriterLock, type WriterLock } from './session-lock.js'
import { tellsHead } from './store-head.js'

interface Pending {
  entry: NewSessionEntry
  resolve: (entry: SessionEntry) => void
  reject: (error: unknown) => void
}

/** The session file open for writing: its handle and its writer lock. */
interface OpenFile {
  handle: FileHandle
  lock: WriterLock
}

/**
 * A session stored in the file at `path` (created 0600, with its missing folders 0700). Opening
 * it throws `SessionLogError` (`<file>:<line>: <what is wrong>`) when a line is damaged, an
 * error naming the path when it is not a regular file, and one with `code` `SESSION_LOCKED`
 * naming the holder when another store has it open for writing.
 */
export function jsonlSession(path: string): SessionStore {
  let file: OpenFile | undefined
  let opening: Promise<void> | undefined
  let lastSeq = 0
  // The length of the file up to the end of the last acknowledged entry: where a failed write is cut back to.
  let size = 0
  let broken: Error | undefined
  // The last entry on disk lacks its newline (a write stopped just before it): write one first.
  let newlineFirst = false
  // The file ends in a torn line (past `size`): cut off before the first write, so a store that only reads changes nothing.
  let torn = false
  let flushing: Promise<void> | undefined
  const queue: Pending[] = []
  // The approval rules over what the file holds, so that no append breaks them (a load would refuse it).
  let ledger = new ApprovalLedger()

  const openFile = async () => {
    const opened = await openForWriting(path)
    try {
      const { entries, validBytes, totalBytes, unterminated } = parseSessionLog(await readAll(opened.handle), path)
      torn = validBytes < totalBytes
      lastSeq = entries.at(-1)?.seq ?? 0
      size = validBytes
      newlineFirst = unterminated
      ledger = new ApprovalLedger()
      for (const entry of entries) ledger.problem(entry)
    } catch (error) {
      await closeFile(opened).catch(() => {})
      throw error
    }
    file = opened
  }

  // A store that could not open (the file damaged, another writer holding it) tries again on its next call.
  const openOnce = () => opening ??= openFile().catch((error) => {
    opening = undefined
    throw error
  })

  /**
   * Writes one batch: every entry that can be read back (`lineOf`), in one write and one sync.
   * Resolves those, or rejects them all (a failed write also breaks the store).
   */
  const writeBatch = async (queued: Pending[]) => {
    const { handle } = file!
    const batch: Pending[] = []
    const stored: SessionEntry[] = []
    let text = newlineFirst ? '\n' : ''
    for (const p of queued) {
      // Object.assign, not a spread: a spread copy took 1–2 µs more per entry to build and write (memorySession's note).
      const entry = Object.assign({}, p.entry, { seq: lastSeq + 1 + batch.length }) as SessionEntry
      const line = lineOf(p, entry)
      if (line === undefined) continue
      text += line
      batch.push(p)
      stored.push(entry)
    }
    if (batch.length === 0) return
    const bytes = Buffer.from(text)
    try {
      if (torn) await handle.truncate(size)
      torn = false
      // A plain write lands in the page cache in microseconds: made synchronously, it costs no trip
      // through the thread pool, leaving the sync as the one wait of the group (docs/performance.md).
      writeAll((b, offset, length) => writeSync(handle.fd, b, offset, length), bytes)
      await handle.datasync()
    } catch (error) {
      broken = await writeFailed(path, handle, size, error)
      for (const p of batch) p.reject(broken)
      return
    }
    lastSeq += batch.length
    size += bytes.length
    newlineFirst = false
    batch.forEach((p, i) => p.resolve(stored[i]))
  }

  /**
   * The line of `entry`, or undefined, having rejected `p` (nothing of it is written, the store
   * goes on), when it cannot be written as JSON or breaks the rules of approvals after what the
   * file holds (`ApprovalLedger`, which a load checks too): a load would refuse the file after it.
   */
  const lineOf = (p: Pending, entry: SessionEntry): string | undefined => {
    let line: string
    try {
      line = `${JSON.stringify(entry)}\n`
    } catch (error) {
      p.reject(new Error(`session entries not appended to ${path}: they cannot be written as JSON (${(error as Error).message})`, { cause: error }))
      return undefined
    }
    const problem = ledger.problem(entry)
    if (problem === undefined) return line
    p.reject(new Error(`session entry not appended to ${path}: ${problem}; a load would refuse the file after it`))
    return undefined
  }

  const flush = async () => {
    await openOnce()
    while (queue.length > 0) {
      // Let what the last write set going (the next calls of a batch, their results) queue up
      // first: one write and one sync then carry all of it (`group-commit.ts`).
      await afterMicrotasks()
      const batch = queue.splice(0)
      if (broken) for (const p of batch) p.reject(broken)
      else await writeBatch(batch)
    }
  }

  const kick = () => {
    // Only opening can throw here: the appends waiting for it are rejected with its error.
    flushing ??= flush().catch((error) => {
      for (const p of queue.splice(0)) p.reject(error)
    }).finally(() => {
      flushing = undefined
      if (queue.length > 0) kick()
    })
  }

  const store: SessionStore = {
    id: path,
    async load() {
      await openOnce()
      while (flushing) await flushing
      if (!file) throw new Error(`session file ${path}: the store was closed while loading`)
      return parseSessionLog(await readAll(file.handle), path).entries
    },
    append(entry) {
      // Never write a line that could not be read back: it would refuse the whole file later.
      const problem = newEntryProblem(entry)
      if (problem !== undefined) return Promise.reject(new Error(`session entry not appended to ${path}: ${problem}`))
      return new Promise<SessionEntry>((resolve, reject) => {
        queue.push({ entry, resolve, reject })
        kick()
      })
    },
    async close() {
      await opening?.catch(() => {})
      while (flushing) await flushing
      const closing = file
      file = undefined
      opening = undefined
      if (closing) await closeFile(closing)
    },
  }
  // While the file is open this store is its one writer: it knows its last entry, unless an append is on its way.
  tellsHead(store, () => file !== undefined && queue.length === 0 && flushing === undefined && !broken ? lastSeq : undefined)
  return store
}

/** Makes the folders, opens the file (a regular file only) and takes its writer lock. */
async function openForWriting(path: string): Promise<OpenFile> {
  await makeFolders(dirname(path))
  const handle = await openSessionFile(path)
  try {
    const lock = await takeWriterLock(path, `${await realpath(path)}.lock`)
    return { handle, lock }
  } catch (error) {
    await handle.close()
    throw error
  }
}

async function closeFile({ handle, lock }: OpenFile): Promise<void> {
  try {
    await handle.close()
  } finally {
    await lock.release()
  }
}

/**
 * The error of a write or sync that failed. What it may have left in the file (whole lines of
 * entries never acknowledged, a part of one) is cut off, back to `size`, and that cut synced,
 * so a reopen sees exactly the acknowledged entries.
 */
async function writeFailed(path: string, handle: FileHandle, size: number, error: unknown): Promise<Error> {
  const reason = error instanceof Error ? error.message : String(error)
  let outcome = 'the entries of that write were cut off again, so the file ends after the last acknowledged entry'
  try {
    await handle.truncate(size)
    await handle.datasync()
  } catch (cutError) {
    outcome = `cutting that write off failed too (${(cutError as Error).message}), so the file may end in entries ` +
      'that were never acknowledged'
  }
  return new Error(`session file ${path} can no longer be written (${reason}); ${outcome}; ` +
    'this store refuses every later append: fix the cause (disk space, the file size limit), then open the session again',
    { cause: error })
}
