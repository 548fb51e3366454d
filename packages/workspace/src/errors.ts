/**
 * The codes confinement puts on the errors it throws. A tool body that lets one escape gets
 * it as its result's `error.info.code` (the kernel reads a thrown error's `code`). The strings
 * are the kernel's own where one exists (`TOOL_DENIED`), so this package needs no import of it.
 */

/** The path leads outside the root (also: it was swapped for a link while being opened). Equals the kernel's `TOOL_DENIED`. */
export const TOOL_DENIED = 'TOOL_DENIED'
/** The path does not exist, or its links form a loop. */
export const NOT_FOUND = 'NOT_FOUND'
/** The path is not what was asked for: a folder for a file, a file for a folder, a FIFO or device. */
export const WRONG_TYPE = 'WRONG_TYPE'

/** An error thrown by confinement: its `code` is one of the constants above. */
export class WorkspaceError extends Error {
  constructor(readonly code: string, message: string) {
    super(message)
    this.name = 'WorkspaceError'
  }
}

/** Turns Node's own errors for a path into ones the model can act on; rethrows anything else. */
export function explain(error: unknown, shown: string): never {
  const code = (error as { code?: unknown } | undefined)?.code
  if (code === 'ENOENT') throw new WorkspaceError(NOT_FOUND, `"${shown}" does not exist`)
  if (code === 'EISDIR') throw new WorkspaceError(WRONG_TYPE, `"${shown}" is a directory, not a file`)
  if (code === 'ENOTDIR') throw new WorkspaceError(WRONG_TYPE, `a parent of "${shown}" is not a directory`)
  if (code === 'ELOOP') throw new WorkspaceError(NOT_FOUND, `"${shown}" cannot be resolved: its symbolic links form a loop`)
  throw error
}
