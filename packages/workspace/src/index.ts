/**
 * `@rein/workspace`: the one confinement to a root that rein's tool sources share. A model-given
 * path is resolved against the root (`..` escapes, absolute paths elsewhere and symbolic links
 * out are refused with `TOOL_DENIED`, dangling links judged by where they point), then opened
 * and checked by descriptor, so a swap between the check and the open is refused as well. A
 * file's whole content is replaced through a new file renamed over it (`replaceFile`), never cut short.
 * Node built-ins only: it imports none of rein's packages. Linux (`/proc/self/fd`).
 */
export { TOOL_DENIED, NOT_FOUND, WRONG_TYPE, WorkspaceError, explain, named, errorCode } from './errors.js'
export { Root, inside, type Resolved, type RootOptions } from './root.js'
export { FOR, within, whereIs, ensureInside, openInside, failedOpen, changed, checkProcFd } from './opened.js'
export { openFolder } from './folders.js'
export { openForWrite, type Writable } from './create.js'
export { replaceFile, type ReplaceOptions, type Replaced } from './replace.js'
export { kindOf } from './kind.js'
export { keepInside } from './keep.js'
