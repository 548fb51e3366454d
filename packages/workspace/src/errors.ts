/**
 * The codes confinement puts on the errors it throws. A tool body that lets one escape gets
 * it as its result's `error.info.code` (the kernel reads a thrown error's `code`). The strings
 * are the kernel's own where one exists (`TOOL_DENIED`), so this package needs no import of it.
 */

/** The path leads outside the root (also: it was swapped for a link while being opened). Equals the kernel's `TOOL_DENIED`. */
export const TOOL_DENIED = 'TOOL_DENIED'
/** The path does not exist, or its links form a loop. */
export const NOT_FOUND = 'NOT_FOUND'
/** The path is not what was asked for: a folder for a file, a file for a folder, a FIFO, socket or device. */
export const WRONG_TYPE = 'WRONG_TYPE'

/** An error thrown by confinement: its `code` is one of the constants above. */
export class WorkspaceError extends Error {
  constructor(readonly code: string, message: string) {
    super(message)
    this.name = 'WorkspaceError'
  }
}

/** The `code` of an error (Node's `ENOENT` and the like), or undefined. */
export function errorCode(error: unknown): unknown {
  return (error as { code?: unknown } | undefined)?.code
}

/**
 * Turns Node's own errors for a path into ones the model can act on. Any other operating-system
 * error keeps its code but names the path as the model gave it (`shown`), never the internal
 * path that was opened (`/proc/self/fd/<fd>/<name>`); `action` says what failed (default: the
 * system call). Anything else is rethrown as it is.
 */
export function explain(error: unknown, shown: string, action?: string): never {
  const code = errorCode(error)
  if (code === 'ENOENT') throw new WorkspaceError(NOT_FOUND, `"${shown}" does not exist`)
  if (code === 'EISDIR') throw new WorkspaceError(WRONG_TYPE, `"${shown}" is a directory, not a file`)
  if (code === 'ENOTDIR') throw new WorkspaceError(WRONG_TYPE, `a parent of "${shown}" is not a directory`)
  if (code === 'ELOOP') throw new WorkspaceError(NOT_FOUND, `"${shown}" cannot be resolved: its symbolic links form a loop`)
  if (code === 'ENXIO') throw new WorkspaceError(WRONG_TYPE, `"${shown}" is a FIFO, socket or device, not a regular file`)
  throw named(error, shown, action)
}

/** Node's error for a system call, its code kept, naming `shown` instead of the path it was given. */
export function named(error: unknown, shown: string, action?: string): unknown {
  const { code, syscall, errno } = (error ?? {}) as NodeJS.ErrnoException
  if (!(error instanceof Error) || typeof code !== 'string' || typeof syscall !== 'string') return error
  const what = error.message.split(', ')[0]
  return Object.assign(new Error(`${what}, ${action ?? syscall} "${shown}"`), { code, syscall, errno })
}
