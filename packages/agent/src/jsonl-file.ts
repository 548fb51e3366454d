/**
 * The file side of session logs: making the folders of a session file, opening the file
 * itself (a regular file only, refused at once and never waited on when it is anything else),
 * reading it whole and writing every byte of a batch. Files it creates are 0600 and folders
 * 0700, exactly: a session holds the transcript, secrets the model saw included.
 */
import { constants, type Stats } from 'node:fs'
import { chmod, mkdir, open, stat, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'

const FILE_MODE = 0o600
const FOLDER_MODE = 0o700
// O_NONBLOCK: opening a FIFO must not wait for the other end; O_NOCTTY: a terminal must not become
// this process' own. Neither changes anything for a regular file.
const READ_APPEND = constants.O_RDWR | constants.O_APPEND | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0)
const READ_ONLY = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0)
const CREATE = constants.O_CREAT
const EXCLUSIVE = constants.O_EXCL
const READ_CHUNK = 1 << 16
const WRITE_HINT = 'give the path of one, or of none yet to start a new session'
const READ_HINT = 'give the path of one'

/**
 * Opens the session file at `path` to read and append, creating it (0600, whatever the umask)
 * when there is none; an existing file keeps its mode. Anything but a regular file (a folder,
 * a FIFO, a socket, a device) is refused with an error naming the path and what it is.
 */
export async function openSessionFile(path: string): Promise<FileHandle> {
  let handle: FileHandle
  try {
    handle = await openOrCreate(path)
  } catch (error) {
    throw await kindError(path) ?? error
  }
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) throw notAFile(path, stats)
  } catch (error) {
    await handle.close()
    throw error
  }
  return handle
}

async function openOrCreate(path: string): Promise<FileHandle> {
  let created: FileHandle
  try {
    created = await open(path, READ_APPEND | CREATE | EXCLUSIVE, FILE_MODE)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return open(path, READ_APPEND | CREATE)
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

/**
 * The bytes of the session file at `path`, read without changing it. Anything but a regular
 * file is refused (and a FIFO never waited on), as `openSessionFile` does.
 */
export async function readSessionFile(path: string): Promise<Buffer> {
  let handle: FileHandle
  try {
    handle = await open(path, READ_ONLY)
  } catch (error) {
    throw await kindError(path, READ_HINT) ?? error
  }
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) throw notAFile(path, stats, READ_HINT)
    return await readAll(handle)
  } finally {
    await handle.close()
  }
}

/** Why opening `path` failed, when the reason is what it is (a folder, a socket...); else undefined. */
async function kindError(path: string, hint = WRITE_HINT): Promise<Error | undefined> {
  const stats = await stat(path).catch(() => undefined)
  return stats && !stats.isFile() ? notAFile(path, stats, hint) : undefined
}

function notAFile(path: string, stats: Stats, hint = WRITE_HINT): Error {
  return new Error(`session file ${path} is ${kindOf(stats)}, not a regular file: a session is kept in a regular file; ${hint}`)
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory'
  if (stats.isFIFO()) return 'a FIFO (named pipe)'
  if (stats.isSocket()) return 'a socket'
  if (stats.isCharacterDevice()) return 'a character device'
  if (stats.isBlockDevice()) return 'a block device'
  return 'something else'
}

/** The whole file behind `handle`, read by position (an append handle's own position is at its end). */
export async function readAll(handle: FileHandle): Promise<Buffer> {
  const { size } = await handle.stat()
  const chunks: Buffer[] = []
  for (let position = 0; ;) {
    // The size as it was, and room to see the end (or more, when the file grew meanwhile).
    const chunk = Buffer.allocUnsafe(Math.max(size - position, 0) + READ_CHUNK)
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position)
    if (bytesRead === 0) return Buffer.concat(chunks)
    chunks.push(chunk.subarray(0, bytesRead))
    position += bytesRead
  }
}

/** Writes bytes at the file's position (an append handle's: its end); returns how many it stored. */
export type WriteSome = (bytes: Uint8Array, offset: number, length: number) => number

/**
 * Appends every byte of `bytes` with `write`: a write may store only some of them (a file size
 * limit, a full disk), so it writes on from there until all are written. A write that stores
 * nothing, or fails, throws: then only some of `bytes` may be in the file.
 */
export function writeAll(write: WriteSome, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) {
    const bytesWritten = write(bytes, done, bytes.length - done)
    if (!(bytesWritten > 0)) throw new Error(`a write stored nothing, after ${done} of ${bytes.length} bytes`)
    done += bytesWritten
  }
}

/**
 * Creates `folder` and its missing parents, one at a time, each made exactly 0700 (mkdir's mode
 * is narrowed by the umask, and a parent must be usable before its child can be made). A folder
 * that exists is left as it is.
 */
export async function makeFolders(folder: string): Promise<void> {
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
