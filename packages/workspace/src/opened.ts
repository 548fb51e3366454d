/**
 * Opening inside the root with no window for a swap. A path is opened first (never following a
 * link at its end), then the kernel is asked where the descriptor really is
 * (`/proc/self/fd/<fd>`); one outside the root's real path is closed and refused with
 * `TOOL_DENIED` before a byte is read or written through it. A name inside an open folder is
 * reached as `/proc/self/fd/<fd>/<name>`, which the kernel looks up in that folder itself, not
 * by its path again. Linux only: `checkProcFd` says at start whether this can work.
 */
import { closeSync, constants, openSync, readlinkSync } from 'node:fs'
import { lstat, open, readlink, type FileHandle } from 'node:fs/promises'
import { explain, TOOL_DENIED, WorkspaceError, WRONG_TYPE } from './errors.js'
import { inside, type Root } from './root.js'

const { O_RDONLY, O_RDWR, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants
/** Linux `O_PATH` (the same on every architecture Node runs on): a handle that reads nothing. */
const O_PATH = 0o10000000

/** What a descriptor is opened for. None follows a link at the end of the path. */
export const FOR = {
  /** Reading a file; never blocks on a FIFO, never takes a terminal. */
  read: O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY,
  /** Reading and rewriting a file in place (no truncation on open). */
  edit: O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY,
  /**
   * Only locating and stat-ing: opening has no side effect and needs no read permission. A
   * link at the end of the path is opened as the link itself: check `stat().isSymbolicLink()`.
   */
  look: O_PATH | O_NOFOLLOW,
  /** A folder, to look names up in, to list through `within(dir)`, or to start a process in. */
  folder: O_PATH | O_DIRECTORY | O_NOFOLLOW,
} as const

/** The path that reaches `name` inside the open folder `dir` (or `dir` itself). */
export function within(dir: FileHandle, name?: string): string {
  return name === undefined ? `/proc/self/fd/${dir.fd}` : `/proc/self/fd/${dir.fd}/${name}`
}

/** Where an open descriptor really is, as the kernel sees it now. */
export function whereIs(handle: FileHandle): Promise<string> {
  return readlink(within(handle))
}

/** Throws `TOOL_DENIED` (naming `input`) unless `handle` is inside the root's real path. */
export async function ensureInside(root: Root, handle: FileHandle, input: string): Promise<void> {
  const where = await whereIs(handle)
  if (!inside(where, root.real)) {
    throw new WorkspaceError(TOOL_DENIED, `${root.noun} "${input}" is refused: it was changed while being opened and now `
      + `leads to ${where}, outside the root ${root.path}`)
  }
}

/**
 * Opens `target` (a path `root.resolve` returned) with `flags` and checks where it landed;
 * closes it again when that is outside. `input` is the model's text, for messages;
 * `notFolder` is the message for a file where `FOR.folder` wanted a folder.
 */
export async function openInside(root: Root, target: string, flags: number, input: string, notFolder?: string): Promise<FileHandle> {
  const handle = await open(target, flags).catch((error) => failedOpen(root, error, target, input, notFolder))
  try {
    await ensureInside(root, handle, input)
  } catch (error) {
    await handle.close()
    throw error
  }
  return handle
}

/** Explains a failed open; a link where a resolved path had none means it changed meanwhile. */
export async function failedOpen(root: Root, error: unknown, target: string, input: string, notFolder?: string): Promise<never> {
  const code = (error as { code?: unknown } | undefined)?.code
  const found = code === 'ENOTDIR' ? await lstat(target).catch(() => undefined) : undefined
  if (code === 'ELOOP' || found?.isSymbolicLink()) throw changed(root, input)
  if (found && notFolder !== undefined) throw new WorkspaceError(WRONG_TYPE, notFolder)
  return explain(error, input)
}

/** The refusal for a resolved path (which had no link) that turned out to have one when opened. */
export function changed(root: Root, input: string): WorkspaceError {
  return new WorkspaceError(TOOL_DENIED, `${root.noun} "${input}" is refused: it was changed while being opened `
    + '(a symbolic link appeared on it)')
}

/** Checks once, at start, that an opened folder's real path can be read back. Throws, prefixed by `owner`, how to fix it. */
export function checkProcFd(root: Root, owner: string): void {
  let fd: number | undefined
  let where: string
  try {
    fd = openSync(root.real, FOR.folder)
    where = readlinkSync(`/proc/self/fd/${fd}`)
  } catch (error) {
    throw new Error(`${owner}: cannot tell where an opened file is (${(error as Error).message}); `
      + 'confinement to the root needs Linux with /proc mounted')
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
  if (where !== root.real) {
    throw new Error(`${owner}: /proc/self/fd reports ${where} for the root ${root.real}; `
      + 'confinement to the root needs a /proc that shows this process\'s own descriptors')
  }
}
