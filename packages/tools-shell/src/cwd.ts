/**
 * Where a command starts. `cwd` (default: the root) is resolved and opened as a folder by
 * `@rein/workspace`, which refuses with `TOOL_DENIED` a cwd whose lexical or real form lies
 * outside the root, and one swapped for a link while being opened. The command is started in
 * that checked descriptor (`/proc/self/fd/<fd>`), never by its path again. This confines where a
 * command starts, not what it does: bash itself is not sandboxed, and a command may `cd /`.
 */
import type { FileHandle } from 'node:fs/promises'
import { CodedError } from '@rein/kernel'
import { FOR, NOT_FOUND, openInside, WRONG_TYPE, type Root } from '@rein/workspace'
import { BAD_CWD } from './codes.js'

/** The folder for `input` (default: the root), open and checked. Throws `TOOL_DENIED` or `BAD_CWD`. */
export async function openCwd(root: Root, input: string | undefined): Promise<FileHandle> {
  const cwd = input === undefined || input === '' ? '.' : input
  try {
    const { real } = await root.resolve(cwd)
    return await openInside(root, real, FOR.folder, cwd, `cwd "${cwd}" is not a folder`)
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === NOT_FOUND) throw new CodedError(`cwd "${cwd}" does not exist`, BAD_CWD)
    if (code === WRONG_TYPE) throw new CodedError(`cwd "${cwd}" is not a folder`, BAD_CWD)
    throw error
  }
}
