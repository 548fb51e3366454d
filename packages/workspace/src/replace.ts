/**
 * Replacing a file's whole content inside the root so that it is never seen cut short, not
 * even after a crash or with a full disk. The file's folder is opened by descriptor and
 * checked (`openFolder`); the new content goes to a temporary file created in that folder
 * (exclusively, never through a link), is written whole and flushed to disk, takes the old
 * file's permissions and owner, and only then is renamed over the file's name in the same
 * open folder. On any failure the temporary file is removed and the file is as it was. After
 * a crash the name holds the old content or the new, each whole (the folder is not flushed,
 * so a crash may undo the rename). A name that holds anything but a regular file (a folder,
 * FIFO, socket or device) is refused before anything is made, and nothing is opened through it.
 */
import { randomBytes } from 'node:crypto'
import { constants, type Stats } from 'node:fs'
import { access, lstat, open, rename, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { errorCode, explain, WorkspaceError, WRONG_TYPE } from './errors.js'
import { openFolder } from './folders.js'
import { kindOf } from './kind.js'
import { removeMade } from './made.js'
import { changed, ensureInside, within } from './opened.js'
import type { Root } from './root.js'

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NOCTTY, W_OK } = constants
const TEMP = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY
/** Temporary names tried when one is taken. */
const TRIES = 3
/** Bytes per write call: an abort is seen between two. */
const CHUNK = 1 << 20

export interface ReplaceOptions {
  /** Make missing parent folders (for creating a file); without it a missing folder is `NOT_FOUND`. */
  makeFolders?: boolean
  /** Seen between writes and before the rename: an abort leaves the file as it was. */
  signal?: AbortSignal
}

export interface Replaced {
  /** Nothing had the name before: the file is new. */
  created: boolean
}

/** Where the file goes: its name in its open, checked folder, and the path as the model gave it. */
interface Place { root: Root, dir: FileHandle, name: string, input: string }

/**
 * Gives the file at `real` (a path `root.resolve` returned) the content `data`, creating it
 * when missing. `input` names it in errors. Throws `WRONG_TYPE` for a folder, FIFO, socket or
 * device, `TOOL_DENIED` when a link appeared on the path, or Node's error (its code kept), e.g.
 * `EACCES` for a file this process may not write.
 */
export async function replaceFile(root: Root, real: string, input: string, data: Uint8Array,
  options: ReplaceOptions = {}): Promise<Replaced> {
  if (real === root.real) throw new WorkspaceError(WRONG_TYPE, `"${input}" is a directory, not a file`)
  const dir = await openFolder(root, path.dirname(real), input, options.makeFolders ?? false)
  try {
    const place = { root, dir, name: path.basename(real), input }
    const before = await writableOrNone(place)
    await putInPlace(place, data, before, options.signal)
    return { created: before === undefined }
  } finally {
    await dir.close()
  }
}

/**
 * What the name holds now: undefined when nothing. Anything but a regular file is refused, and
 * so is a file this process may not write (replacing it would need only the folder's permission).
 */
async function writableOrNone({ root, dir, name, input }: Place): Promise<Stats | undefined> {
  const at = within(dir, name)
  const stat = await lstat(at).catch((error) => (errorCode(error) === 'ENOENT' ? undefined : explain(error, input)))
  if (!stat) return undefined
  if (stat.isSymbolicLink()) throw changed(root, input) // the resolved path had none at its end
  if (!stat.isFile()) throw new WorkspaceError(WRONG_TYPE, `"${input}" is ${kindOf(stat)}, not a regular file`)
  await access(at, W_OK).catch((error) => explain(error, input, 'writing'))
  return stat
}

/** Writes `data` to a new file beside the name, then renames it to the name; removes it again on any failure. */
async function putInPlace({ root, dir, name, input }: Place, data: Uint8Array, before: Stats | undefined,
  signal: AbortSignal | undefined): Promise<void> {
  const { handle, temp } = await createTemp(dir, input, before ? 0o600 : 0o666)
  try {
    await ensureInside(root, handle, input)
    await writeAll(handle, data, input, signal)
    if (before) await keepAccess(handle, before)
    await handle.sync().catch((error) => explain(error, input, 'flushing the new content of'))
    signal?.throwIfAborted()
    await ensureInside(root, handle, input)
    await rename(within(dir, temp), within(dir, name)).catch((error) => explain(error, input, 'renaming the new content over'))
  } catch (error) {
    await removeMade(handle, within(dir, temp))
    throw error
  } finally {
    await handle.close()
  }
}

/** A new, empty file with a random name in `dir`, created exclusively, never through a link. */
async function createTemp(dir: FileHandle, input: string, mode: number): Promise<{ handle: FileHandle, temp: string }> {
  for (let attempt = 1; ; attempt++) {
    const temp = `.${randomBytes(6).toString('hex')}.rein-tmp`
    const handle = await open(within(dir, temp), TEMP, mode).catch((error) => {
      if (errorCode(error) === 'EEXIST' && attempt < TRIES) return undefined
      return explain(error, input, 'making the new file beside')
    })
    if (handle) return { handle, temp }
  }
}

/** Writes every byte of `data`, however many calls that takes. */
async function writeAll(handle: FileHandle, data: Uint8Array, input: string, signal: AbortSignal | undefined): Promise<void> {
  let done = 0
  while (done < data.length) {
    signal?.throwIfAborted()
    const { bytesWritten } = await handle.write(data, done, Math.min(CHUNK, data.length - done), done)
      .catch((error) => explain(error, input, 'writing the new content of'))
    if (bytesWritten === 0) throw Object.assign(new Error(`EIO: nothing more could be written, writing the new content of "${input}"`), { code: 'EIO' })
    done += bytesWritten
  }
}

/** Gives the new file the old one's permissions (not set-user/group-ID) and, where allowed, its owner and group. */
async function keepAccess(handle: FileHandle, before: Stats): Promise<void> {
  const now = await handle.stat()
  if (now.uid !== before.uid || now.gid !== before.gid) {
    await handle.chown(before.uid, before.gid)
      .catch(() => handle.chown(now.uid, before.gid))
      .catch(() => undefined) // not allowed: the file is now this process's, as a new one would be
  }
  await handle.chmod(before.mode & 0o777)
}
