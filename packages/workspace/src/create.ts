/**
 * Opening a file for writing inside the root, creating it and its missing folders, with no
 * window for a swap. Folders are walked one name at a time from the root's own descriptor,
 * never through a link, and each is checked to be inside the root; the file is created (or
 * opened) by name in the last one, never through a link, and checked again. Nothing is
 * truncated or written before that check, and a file or empty folder this made that turns
 * out to be outside is removed again.
 */
import { constants } from 'node:fs'
import { lstat, mkdir, open, rmdir, unlink, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { TOOL_DENIED, WorkspaceError, WRONG_TYPE } from './errors.js'
import { ensureInside, failedOpen, FOR, openInside, within } from './opened.js'
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
  const dir = await openFolders(root, path.dirname(real), input)
  try {
    const at = within(dir, path.basename(real))
    for (let attempt = 1; ; attempt++) {
      const made = await open(at, CREATE, 0o666).catch((error) => (code(error) === 'EEXIST' ? undefined : failedOpen(root, error, at, input)))
      const handle = made ?? await open(at, WRITE)
        .catch((error) => (code(error) === 'ENOENT' && attempt < ATTEMPTS ? undefined : failedOpen(root, error, at, input)))
      if (!handle) continue
      try {
        await ensureInside(root, handle, input)
        if (!(await handle.stat()).isFile()) throw new WorkspaceError(WRONG_TYPE, `"${input}" is not a regular file`)
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

/** The folder `real` (inside the root) as an open descriptor, making missing folders on the way. */
async function openFolders(root: Root, real: string, input: string): Promise<FileHandle> {
  const names = path.relative(root.real, real).split(path.sep).filter((name) => name !== '')
  if (names.includes('..')) throw new WorkspaceError(TOOL_DENIED, `${root.noun} "${input}" is refused: it is outside the root ${root.path}`)
  let dir = await openInside(root, root.real, FOR.folder, input)
  try {
    for (const name of names) {
      const next = await step(root, dir, name, input)
      await dir.close()
      dir = next
    }
    return dir
  } catch (error) {
    await dir.close()
    throw error
  }
}

/** Opens (making it when missing) the folder `name` inside `dir`, and checks it is inside the root. */
async function step(root: Root, dir: FileHandle, name: string, input: string): Promise<FileHandle> {
  const at = within(dir, name)
  let made = false
  let next = await open(at, FOR.folder).catch((error) => (code(error) === 'ENOENT' ? undefined : failedOpen(root, error, at, input)))
  if (!next) {
    made = await mkdir(at).then(() => true, (error) => (code(error) === 'EEXIST' ? false : failedOpen(root, error, at, input)))
    next = await open(at, FOR.folder).catch((error) => failedOpen(root, error, at, input))
  }
  try {
    await ensureInside(root, next, input)
  } catch (error) {
    await next.close()
    if (made) await rmdir(at).catch(() => undefined) // only if still empty: never anyone else's content
    throw error
  }
  return next
}

/** Unlinks the file this call created at `at`, if the name still holds that same file. */
async function removeMade(handle: FileHandle, at: string): Promise<void> {
  const [ours, there] = await Promise.all([handle.stat(), lstat(at).catch(() => undefined)])
  if (there && there.dev === ours.dev && there.ino === ours.ino) await unlink(at).catch(() => undefined)
}

function code(error: unknown): unknown {
  return (error as { code?: unknown } | undefined)?.code
}
