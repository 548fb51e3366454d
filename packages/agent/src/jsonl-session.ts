/**
 * A session in a JSONL file: one entry per line, append-only. Appends are grouped: every
 * entry queued while a write is in flight goes out in the next single write, followed by
 * one fdatasync, and each append resolves only after the sync that covers it. So a `tool/call`
 * is on disk before its body runs, and the file survives `kill -9` at any instant: a torn
 * last line (a write cut short) was never acknowledged and is cut off when the file is opened.
 */
import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { NewSessionEntry, SessionEntry, SessionStore } from './session.js'

interface Pending {
  entry: NewSessionEntry
  resolve: (entry: SessionEntry) => void
  reject: (error: unknown) => void
}

/** A session stored in the file at `path` (created, with its folder, when missing). */
export function jsonlSession(path: string): SessionStore {
  let handle: FileHandle | undefined
  let opening: Promise<void> | undefined
  let lastSeq = 0
  let broken: Error | undefined
  let flushing: Promise<void> | undefined
  const queue: Pending[] = []

  const openOnce = () => opening ??= (async () => {
    await mkdir(dirname(path), { recursive: true })
    const { entries, validBytes, totalBytes } = parse(path, await readText(path))
    lastSeq = entries.at(-1)?.seq ?? 0
    handle = await open(path, 'a')
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
        await handle!.write(stored.map((entry) => `${JSON.stringify(entry)}\n`).join(''))
        await handle!.datasync()
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
      return parse(path, await readText(path)).entries
    },
    append(entry) {
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

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw error
  }
}

/** Parses complete lines; a last line without its newline is a torn write and is left out. */
function parse(path: string, text: string) {
  const end = text.lastIndexOf('\n') + 1
  const entries: SessionEntry[] = []
  const lines = text.slice(0, end).split('\n')
  lines.pop()
  lines.forEach((line, i) => {
    try {
      entries.push(JSON.parse(line) as SessionEntry)
    } catch {
      throw new Error(`${path}:${i + 1}: not a JSON session entry; the file is damaged (restore it, or move it aside to start afresh)`)
    }
  })
  return { entries, validBytes: Buffer.byteLength(text.slice(0, end)), totalBytes: Buffer.byteLength(text) }
}
