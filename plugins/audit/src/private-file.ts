/**
 * Creates the audit log privately: every folder this module creates is mode 0700 and the file,
 * when it creates it, 0600 — set explicitly after creation, since a umask can only remove
 * bits. Folders and a file that already exist keep the mode their owner gave them.
 */
import { chmodSync, constants, fchmodSync, mkdirSync, openSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

const PRIVATE_DIR = 0o700
const PRIVATE_FILE = 0o600
const APPEND = constants.O_WRONLY | constants.O_APPEND

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

/** Opens `file` to append, creating it 0600 (exclusively) when it does not exist yet. */
export function openPrivateForAppendSync(file: string): number {
  try {
    return openSync(file, APPEND)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  try {
    const fd = openSync(file, APPEND | constants.O_CREAT | constants.O_EXCL, PRIVATE_FILE)
    fchmodSync(fd, PRIVATE_FILE)
    return fd
  } catch (error) {
    // Another writer created it between the two opens: append to theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return openSync(file, APPEND)
    throw error
  }
}
