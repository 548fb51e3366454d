/**
 * A session in a JSONL file: one entry per line, append-only. Appends are grouped: every
 * entry queued while a write is in flight goes out in the next single write, followed by
 * one fdatasync, and each append resolves only after the sync that covers it. So a `tool/call`
 * is on disk before its body runs, and the file survives `kill -9` at any instant: a torn
 * last line (a write cut short) was never acknowledged and is cut off, by byte count, when the
 * file is opened. Any other damage refuses the whole file, which is then left as it is. The
 * file is created 0600 and the folders made for it 0700: it holds the transcript, secrets the
 * model saw included.
 */
import { chmod, mkdir, open, readFile, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { NewSessionEntry, SessionEntry, SessionStore } from './session.js'
import { newEntryProblem } from './session-entry.js'
import { parseSessionLog } from './session-file.js'

const FILE_MODE = 0o600
const FOLDER_MODE = 0o700

interface Pending {
  entry: NewSessionEntry
  resolve: (entry: SessionEntry) => void
  reject: (error: unknown) => void
}

/**
 * A session stored in the file at `path` (created 0600, with its missing folders 0700). Opening
 * it throws `SessionLogError` (`<file>:<line>: <what is wrong>`) when a line is damaged.
 */
export function jsonlSession(path: string): SessionStore {
  let handle: FileHandle | undefined
  let opening: Promise<void> | undefined
  let lastSeq = 0
  let broken: Error | undefined
  // The last entry on disk lacks its newline (a write stopped just before it): write one first.
  let newlineFirst = false
  let flushing: Promise<void> | undefined
  const queue: Pending[] = []

  const openOnce = () => opening ??= (async () => {
    await makeFolders(dirname(path))
    const { entries, validBytes, totalBytes, unterminated } = parseSessionLog(await readBytes(path), path)
    lastSeq = entries.at(-1)?.seq ?? 0
    newlineFirst = unterminated
    handle = await openForAppend(path)
    if (validBytes < totalBytes) await handle.truncate(validBytes)
  })()

  const flush = async () => {
    await openOnce()
    while (queue.length > 0) {
      const batch = queue.splice(0)
      if (broken) {
        for (const p of batch) p.reject(broken)
        continue
      }
      const stored = batch.map((p) => ({ ...p.entry, seq: ++lastSeq }) as SessionEntry)
      try {
        const lines = stored.map((entry) => `${JSON.stringify(entry)}\n`).join('')
        await handle!.write(newlineFirst ? `\n${lines}` : lines)
        await handle!.datasync()
        newlineFirst = false
      } catch (error) {
        broken = new Error(`session file ${path} can no longer be written (${(error as Error).message}); ` +
          'nothing after the failed write was stored', { cause: error })
        for (const p of batch) p.reject(broken)
        continue
      }
      batch.forEach((p, i) => p.resolve(stored[i]))
    }
  }

  const kick = () => {
    flushing ??= flush().catch((error) => {
      broken ??= error instanceof Error ? error : new Error(String(error))
      for (const p of queue.splice(0)) p.reject(broken)
    }).finally(() => {
      flushing = undefined
      if (queue.length > 0) kick()
    })
  }

  return {
    async load() {
      await openOnce()
      while (flushing) await flushing
      return parseSessionLog(await readBytes(path), path).entries
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
      while (flushing) await flushing
      await handle?.close()
      handle = undefined
      opening = undefined
    },
  }
}

async function readBytes(path: string): Promise<Buffer> {
  try {
    return await readFile(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0)
    throw error
  }
}

/**
 * Creates `folder` and its missing parents, one at a time, each made exactly 0700 (mkdir's mode
 * is narrowed by the umask, and a parent must be usable before its child can be made). A folder
 * that exists is left as it is.
 */
async function makeFolders(folder: string): Promise<void> {
  try {
    await mkdir(folder, { mode: FOLDER_MODE })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return
    if (code !== 'ENOENT' || dirname(folder) === folder) throw error
    await makeFolders(dirname(folder))
    return makeFolders(folder)
  }
  await chmod(folder, FOLDER_MODE)
}

/** Opens `path` to append; a file this creates is made 0600 (exactly, whatever the umask). An existing file keeps its mode. */
async function openForAppend(path: string): Promise<FileHandle> {
  let created: FileHandle
  try {
    created = await open(path, 'ax', FILE_MODE)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return open(path, 'a')
    throw error
  }
  try {
    await created.chmod(FILE_MODE)
  } catch (error) {
    await created.close()
    throw error
  }
  return created
}
