/**
 * Opening a file for writing inside the root, creating it and its missing folders, with no
 * window for a swap. The folders are opened by descriptor (`openFolder`); the file is created
 * (or opened) by name in the last one, never through a link, and checked again. Nothing is
 * truncated or written before that check, and a file this made that turns out to be outside
 * is removed again. Writing through it changes the file in place: to replace a file's whole
 * content so that it is never seen cut short, use `replaceFile`.
 */
import { constants } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { errorCode, WorkspaceError, WRONG_TYPE } from './errors.js'
import { openFolder } from './folders.js'
import { kindOf } from './kind.js'
import { removeMade } from './made.js'
import { ensureInside, failedOpen, within } from './opened.js'
import type { Root } from './root.js'

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants
const WRITE = O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY
const CREATE = WRITE | O_CREAT | O_EXCL
/** A file that vanishes between "exists" and "open" is tried again this many times. */
const ATTEMPTS = 3

export interface Writable {
  /** Open for writing, inside the root, a regular file; the caller truncates, writes and closes it. */
  handle: FileHandle
  /** This call created the file. */
  created: boolean
}

/** Opens the file at `real` (a path `root.resolve` returned) for writing. `input` names it in errors. */
export async function openForWrite(root: Root, real: string, input: string): Promise<Writable> {
  if (real === root.real) throw new WorkspaceError(WRONG_TYPE, `"${input}" is a directory`)
  const dir = await openFolder(root, path.dirname(real), input, true)
  try {
    const at = within(dir, path.basename(real))
    for (let attempt = 1; ; attempt++) {
      const made = await open(at, CREATE, 0o666).catch((error) => (errorCode(error) === 'EEXIST' ? undefined : failedOpen(root, error, at, input)))
      const handle = made ?? await open(at, WRITE)
        .catch((error) => (errorCode(error) === 'ENOENT' && attempt < ATTEMPTS ? undefined : failedOpen(root, error, at, input)))
      if (!handle) continue
      try {
        await ensureInside(root, handle, input)
        const stat = await handle.stat()
        if (!stat.isFile()) throw new WorkspaceError(WRONG_TYPE, `"${input}" is ${kindOf(stat)}, not a regular file`)
      } catch (error) {
        if (made) await removeMade(made, at)
        await handle.close()
        throw error
      }
      return { handle, created: made !== undefined }
    }
  } finally {
    await dir.close()
  }
}
