/**
 * Opening inside the root with no window for a swap. A path is opened first (never following a
 * link at its end), then the kernel is asked where the descriptor really is
 * (`/proc/self/fd/<fd>`); one outside the root's real path is closed and refused with
 * `TOOL_DENIED` before a byte is read or written through it. A name inside an open folder is
 * reached as `/proc/self/fd/<fd>/<name>`, which the kernel looks up in that folder itself, not by
 * its path again. Linux only: the plugin refuses to start without `/proc/self/fd`.
 */
import { closeSync, constants, openSync, readlinkSync } from 'node:fs'
import { lstat, open, readlink, type FileHandle } from 'node:fs/promises'
import { explain, FsToolError, TOOL_DENIED, WRONG_TYPE } from './codes.js'
import { inside, type Root } from './root.js'

const { O_RDONLY, O_RDWR, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants
/** Linux `O_PATH` (the same on every architecture Node runs on): a handle that reads nothing. */
const O_PATH = 0o10000000

/** What a descriptor is opened for. Each never follows a link at the end of the path. */
export const FOR = {
  /** Reading a file; never blocks on a FIFO, never takes a terminal. */
  read: O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY,
  /** Reading and rewriting a file in place (no truncation on open). */
  edit: O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY,
  /** Only locating and stat-ing: opening has no side effect and needs no read permission. */
  look: O_PATH | O_NOFOLLOW,
  /** A folder, to look names up in. */
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
    throw new FsToolError(TOOL_DENIED, `path "${input}" is refused: it was changed while being opened and now leads to ${where}, `
      + `outside the root ${root.path}`)
  }
}

/**
 * Opens `target` with `flags` and checks where it landed; closes it again when that is outside.
 * `notFolder` is the message for a file where `FOR.folder` wanted a folder.
 */
export async function openInside(root: Root, target: string, flags: number, input: string, notFolder?: string): Promise<FileHandle> {
  const handle = await open(target, flags).catch((error) => failedOpen(error, target, input, notFolder))
  try {
    await ensureInside(root, handle, input)
  } catch (error) {
    await handle.close()
    throw error
  }
  return handle
}

/** Explains a failed open; a link where a resolved path had none means it changed meanwhile. */
export async function failedOpen(error: unknown, target: string, input: string, notFolder?: string): Promise<never> {
  const code = (error as { code?: unknown } | undefined)?.code
  const found = code === 'ENOTDIR' ? await lstat(target).catch(() => undefined) : undefined
  if (code === 'ELOOP' || found?.isSymbolicLink()) throw changed(input)
  if (found && notFolder !== undefined) throw new FsToolError(WRONG_TYPE, notFolder)
  return explain(error, input)
}

/** The refusal for a resolved path (which has no links) that turned out to have one when opened. */
export function changed(input: string): FsToolError {
  return new FsToolError(TOOL_DENIED, `path "${input}" is refused: it was changed while being opened (a symbolic link appeared on it)`)
}

/** Checks once, at start, that an opened folder's real path can be read back. Throws how to fix it. */
export function checkProcFd(root: Root, owner: string): void {
  let fd: number | undefined
  let where: string
  try {
    fd = openSync(root.real, FOR.folder)
    where = readlinkSync(`/proc/self/fd/${fd}`)
  } catch (error) {
    throw new Error(`${owner}: cannot tell where an opened file is (${(error as Error).message}); `
      + 'the file tools need Linux with /proc mounted to keep every path inside the root')
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
  if (where !== root.real) {
    throw new Error(`${owner}: /proc/self/fd reports ${where} for the root ${root.real}; the file tools need a /proc that shows this process's own descriptors`)
  }
}
