/**
 * Opening the folder a file is in, inside the root, with no window for a swap. The folders
 * are walked one name at a time from the root's own descriptor, each name looked up inside
 * the folder already opened, never through a link, and each folder is checked to be inside
 * the root. Missing folders are made on the way when asked; one made that turns out to be
 * outside is removed again (only while it is still empty).
 */
import { mkdir, open, rmdir, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { errorCode, TOOL_DENIED, WorkspaceError } from './errors.js'
import { ensureInside, failedOpen, FOR, openInside, within } from './opened.js'
import type { Root } from './root.js'

/**
 * The folder `real` (a folder inside the root, e.g. the parent of a path `root.resolve`
 * returned) as an open, checked descriptor (`FOR.folder`); the caller closes it. With `make`,
 * missing folders are made; without it a missing one is `NOT_FOUND`. `input` names it in errors.
 */
export async function openFolder(root: Root, real: string, input: string, make: boolean): Promise<FileHandle> {
  const names = path.relative(root.real, real).split(path.sep).filter((name) => name !== '')
  if (names.includes('..')) throw new WorkspaceError(TOOL_DENIED, `${root.noun} "${input}" is refused: it is outside the root ${root.path}`)
  let dir = await openInside(root, root.real, FOR.folder, input)
  try {
    for (const name of names) {
      const next = await step(root, dir, name, input, make)
      await dir.close()
      dir = next
    }
    return dir
  } catch (error) {
    await dir.close()
    throw error
  }
}

/** Opens (with `make`, making it when missing) the folder `name` inside `dir`, and checks it is inside the root. */
async function step(root: Root, dir: FileHandle, name: string, input: string, make: boolean): Promise<FileHandle> {
  const at = within(dir, name)
  let made = false
  let next = await open(at, FOR.folder)
    .catch((error) => (make && errorCode(error) === 'ENOENT' ? undefined : failedOpen(root, error, at, input)))
  if (!next) {
    made = await mkdir(at).then(() => true, (error) => (errorCode(error) === 'EEXIST' ? false : failedOpen(root, error, at, input)))
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
