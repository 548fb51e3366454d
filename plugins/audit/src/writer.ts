/**
 * Appends lines to the audit file, in the order they are given, with one `write` per group of
 * lines on a descriptor opened O_APPEND. A line is written in the same microtask checkpoint as
 * `append`: the first line of a group queues the write as a microtask, and lines appended
 * before it runs join it (a batch of parallel calls settles in one checkpoint, so its lines
 * cost one system call instead of one each). Nothing outside can see a call's result before its
 * line is written: `tools/result` observers run as the kernel finalizes a result, and the
 * promise that hands the result on resolves after the microtask already queued. `close()`
 * writes what is pending; nothing is pending once the microtask queue has drained. The descriptor is held open (opening and
 * closing per line cost more than the rest of a call) and reopened when the path no longer
 * names the file it holds (rotated away or deleted), checked at most once a second: lines in
 * that second land in the rotated file, and none is dropped unless the file was deleted. The
 * parent directory is created (0700) on first use, the file 0600. A failure never throws: the
 * first is reported through `warn`, later ones are silent, and every later line is attempted.
 */
import { closeSync, fstatSync, statSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { makePrivateDirSync, openPrivateForAppendSync } from './private-file.js'

/** Queues microtasks (see `append`). */
const RESOLVED = Promise.resolve()

/** How often the held descriptor is checked against the path, at most. */
const RECHECK_MS = 1000

/** An appender: `append(line)` and `close()`. */
export interface Appender {
  append(line: string): void
  /** Writes the pending lines, then closes the held descriptor (the next append reopens it). */
  close(): void
}

/** Returns the appender of `file`. `now` is the clock the rotation check uses. */
export function createAppender(file: string, warn: (message: string) => void, now: () => number = Date.now): Appender {
  let fd: number | undefined
  let checkedAt = 0
  let warned = false
  const close = () => {
    if (fd === undefined) return
    try { closeSync(fd) } catch { /* already gone */ }
    fd = undefined
  }
  const rotated = (held: number) => {
    try {
      const onPath = statSync(file)
      const open = fstatSync(held)
      return onPath.ino !== open.ino || onPath.dev !== open.dev
    } catch {
      return true
    }
  }
  const descriptor = () => {
    if (fd !== undefined && now() - checkedAt >= RECHECK_MS) {
      checkedAt = now()
      if (rotated(fd)) close()
    }
    if (fd === undefined) {
      makePrivateDirSync(dirname(file))
      fd = openPrivateForAppendSync(file)
      checkedAt = now()
    }
    return fd
  }
  let pending: string[] = []
  const flush = () => {
    if (pending.length === 0) return
    const text = pending.length === 1 ? `${pending[0]}\n` : `${pending.join('\n')}\n`
    pending = []
    write(text)
  }
  const write = (text: string) => {
    try {
      writeSync(descriptor(), text)
    } catch (error) {
      close()
      if (warned) return
      warned = true
      const reason = error instanceof Error ? error.message : String(error)
      warn(`cannot append to the audit file ${file}: ${reason}; audit lines are being lost (reported once)`)
    }
  }
  return {
    append(line) {
      // A resolved promise's `then`, not `queueMicrotask`: Node makes an AsyncResource per
      // queueMicrotask call. `flush` never throws.
      if (pending.push(line) === 1) void RESOLVED.then(flush)
    },
    close() {
      flush()
      close()
    },
  }
}
