/**
 * Creates and opens the audit log privately: every folder this module creates is mode 0700
 * and the file, when it creates it, 0600 — set explicitly after creation, since a umask can
 * only remove bits. Folders and a file that already exist keep the mode their owner gave them,
 * but the file is only written when it is safe to: a regular file (never a FIFO, which would
 * block the process until a reader came, nor a device or a folder), reached without following
 * a symbolic link, owned by this user and writable by nobody else. Anything else is refused
 * with an error naming the path and the fix.
 */
import { chmodSync, closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, type Stats } from 'node:fs'
import { dirname, resolve } from 'node:path'

const PRIVATE_DIR = 0o700
const PRIVATE_FILE = 0o600
// O_NONBLOCK: opening a FIFO fails at once (no reader) or returns, never waits for the other end.
// O_NOFOLLOW: a symbolic link at the path is refused, not followed to a file someone else chose.
// O_NOCTTY: a terminal must not become this process' own. None changes a regular file's writes.
const APPEND = constants.O_WRONLY | constants.O_APPEND | (constants.O_NONBLOCK ?? 0) |
  (constants.O_NOFOLLOW ?? 0) | (constants.O_NOCTTY ?? 0)
const CREATE = constants.O_CREAT | constants.O_EXCL
const FIX = 'give the path of a regular file of your own that only you can write, or of none yet for audit to create'

/** Makes `dir` and any missing parents, each created one 0700. */
export function makePrivateDirSync(dir: string): void {
  const target = resolve(dir)
  const first = mkdirSync(target, { recursive: true, mode: PRIVATE_DIR })
  if (first === undefined) return
  // mkdir returns the topmost folder it created; every folder from there down to `dir` is new.
  for (let made = target; ; made = dirname(made)) {
    chmodSync(made, PRIVATE_DIR)
    if (made === first || dirname(made) === made) break
  }
}

/**
 * Opens `file` to append, creating it 0600 (exclusively) when it does not exist yet. Throws,
 * with a message naming the path and the fix, when what is there is not a regular file owned
 * by this user and writable by it alone, or is a symbolic link; a FIFO is never waited on.
 */
export function openPrivateForAppendSync(file: string): number {
  const fd = openOrCreate(file)
  try {
    refuseUnsafe(file, fstatSync(fd))
  } catch (error) {
    closeSync(fd)
    throw error
  }
  return fd
}

function openOrCreate(file: string): number {
  // Twice at most: a file that appears between the two opens is opened (and checked) as it is.
  for (let attempt = 0; ; attempt++) {
    try {
      return openSync(file, APPEND)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw openError(file, error)
    }
    let fd: number
    try {
      // O_EXCL also refuses a symbolic link at the path, even one that points nowhere.
      fd = openSync(file, APPEND | CREATE, PRIVATE_FILE)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && attempt === 0) continue
      throw openError(file, error)
    }
    try {
      fchmodSync(fd, PRIVATE_FILE)
    } catch (error) {
      closeSync(fd)
      throw openError(file, error)
    }
    return fd
  }
}

/** The error of a failed open, saying what is at the path when that is why. */
function openError(file: string, error: unknown): Error {
  let found: Stats | undefined
  try { found = lstatSync(file) } catch { /* nothing there, or not reachable: the open's own reason stands */ }
  if (found && !found.isFile()) return notAFile(file, found)
  const reason = error instanceof Error ? error.message : String(error)
  return new Error(`cannot open the audit file ${file} (${reason}): ${FIX}`)
}

function refuseUnsafe(file: string, stats: Stats): void {
  if (!stats.isFile()) throw notAFile(file, stats)
  const uid = process.geteuid?.()
  if (uid !== undefined && stats.uid !== uid) {
    throw new Error(`the audit file ${file} is owned by uid ${stats.uid}, not by this user (uid ${uid}), who could read and forge its lines: remove it, or ${FIX}`)
  }
  if (process.platform !== 'win32' && (stats.mode & 0o022) !== 0) {
    throw new Error(`the audit file ${file} is writable by others (mode 0${(stats.mode & 0o777).toString(8)}), who could forge its lines: chmod go-w it, or ${FIX}`)
  }
}

function notAFile(file: string, stats: Stats): Error {
  return new Error(`the audit file ${file} is ${kindOf(stats)}, not a regular file: ${FIX}`)
}

function kindOf(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'a symbolic link (audit never follows one)'
  if (stats.isDirectory()) return 'a folder'
  if (stats.isFIFO()) return 'a FIFO (named pipe)'
  if (stats.isSocket()) return 'a socket'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  return 'something else'
}
