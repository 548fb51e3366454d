/**
 * The codes the file tools put on the errors they throw. The kernel turns a thrown error's
 * `code` into `error.info.code` of the result, so a policy or a test matches on these strings,
 * never on message text. Confinement refusals use the kernel's own `TOOL_DENIED`.
 */
import { TOOL_DENIED } from '@rein/kernel'

export { TOOL_DENIED }
/** The path does not exist. */
export const NOT_FOUND = 'NOT_FOUND'
/** The path exists but is not what the tool needs (a directory for read_file, a file for list_dir). */
export const WRONG_TYPE = 'WRONG_TYPE'
/** The file contains NUL bytes; these tools read and edit text only. */
export const NOT_TEXT = 'NOT_TEXT'
/** edit_file: `old_string` does not occur in the file. */
export const EDIT_NO_MATCH = 'EDIT_NO_MATCH'
/** edit_file: `old_string` occurs more than once and `replace_all` is not set. */
export const EDIT_NOT_UNIQUE = 'EDIT_NOT_UNIQUE'
/** edit_file: `old_string` and `new_string` are the same, so the edit would change nothing. */
export const EDIT_NO_CHANGE = 'EDIT_NO_CHANGE'
/** grep: the pattern is not a valid JavaScript regular expression; glob/grep: a bad glob. */
export const INVALID_PATTERN = 'INVALID_PATTERN'

/** An error a file tool throws on purpose: its `code` becomes the result's code. */
export class FsToolError extends Error {
  constructor(readonly code: string, message: string) {
    super(message)
    this.name = 'FsToolError'
  }
}

/** Turns Node's own errors for a path into ones the model can act on; rethrows anything else. */
export function explain(error: unknown, shown: string): never {
  const code = (error as { code?: unknown } | undefined)?.code
  if (code === 'ENOENT') throw new FsToolError(NOT_FOUND, `"${shown}" does not exist`)
  if (code === 'EISDIR') throw new FsToolError(WRONG_TYPE, `"${shown}" is a directory, not a file`)
  if (code === 'ENOTDIR') throw new FsToolError(WRONG_TYPE, `a parent of "${shown}" is not a directory`)
  if (code === 'ELOOP') throw new FsToolError(NOT_FOUND, `"${shown}" cannot be resolved: its symbolic links form a loop`)
  throw error
}
