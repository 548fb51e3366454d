/**
 * Appends lines to the audit file, in the order they are given, with one `write` per group of
 * lines on a descriptor opened O_APPEND. A group is every line appended until the microtask
 * queue drains: the first line of a group schedules the write with `process.nextTick`, which
 * runs once the microtasks queued so far (and those they queue) have run, so the calls of a
 * batch that settle one microtask apart share one system call instead of making one each.
 * `written()` is the promise that the pending group is on disk; the plugin hands it to the
 * kernel as a `tools/hand-off` hold, so nobody sees a call's result before its line is
 * written. `close()` writes what is pending. The descriptor is held open (opening and
 * closing per line cost more than the rest of a call) and reopened when the path no longer
 * names the file it holds (rotated away or deleted), checked at most once a second: lines in
 * that second land in the rotated file, and none is dropped unless the file was deleted. The
 * parent directory is created (0700) on first use, the file 0600. A failure never throws and
 * never holds a result back: the first is reported through `warn`, later ones are silent, and
 * every later line is attempted; the lines lost are counted, and the first write that goes
 * through again starts with one `{"auditGap":{"lines":n,"since":…}}` line saying so (and is
 * reported too), so a reader of the file sees where lines are missing. A write is repeated until every byte is out; one that stops
 * short and then fails (a file size limit, a full disk) is cut back off the file, so no torn
 * line is left for the next to be glued to.
 */
import { closeSync, fstatSync, ftruncateSync, statSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { makePrivateDirSync, openPrivateForAppendSync } from './private-file.js'

/** How often the held descriptor is checked against the path, at most. */
const RECHECK_MS = 1000

/** An appender: `append(line)`, `written()` and `close()`. */
export interface Appender {
  /** Opens the file now (made and checked as every open is), throwing what is wrong with it. */
  open(): void
  append(line: string): void
  /** The promise that every line appended so far is written (or failed to be); undefined when none is pending. */
  written(): Promise<void> | undefined
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
  // The group's text, each line followed by its newline.
  let pending = ''
  let group: Promise<void> | undefined
  let release: (() => void) | undefined
  const flush = () => {
    if (pending.length === 0) return
    const text = pending
    const done = release
    pending = ''
    group = release = undefined
    write(text)
    done?.()
  }
  // Lines lost since the last write that went through, and when the first of them was.
  let lost = 0
  let lostSince = 0
  const tell = (message: string) => {
    try {
      warn(message)
    } catch { /* a logger that throws cannot be told; the hold still settles */ }
  }
  const write = (text: string) => {
    const gap = lost > 0 ? `${JSON.stringify({ auditGap: { lines: lost, since: new Date(lostSince).toISOString() } })}\n` : ''
    try {
      writeAll(descriptor(), gap + text)
    } catch (error) {
      close()
      if (lost === 0) lostSince = Date.now()
      lost += countLines(text)
      if (warned) return
      warned = true
      const reason = error instanceof Error ? error.message : String(error)
      tell(`cannot append to the audit file ${file}: ${reason}; audit lines are being lost (reported once, and when writing works again)`)
      return
    }
    if (gap === '') return
    tell(`the audit file ${file} takes lines again; ${lost} were lost, marked in it by an "auditGap" line`)
    lost = 0
    warned = false
  }
  return {
    open() {
      descriptor()
    },
    append(line) {
      if (pending.length === 0) process.nextTick(flush)
      pending += `${line}\n`
    },
    written() {
      if (pending.length === 0) return undefined
      return group ??= new Promise<void>((resolve) => { release = resolve })
    },
    close() {
      flush()
      close()
    },
  }
}

/**
 * Writes all of `text` at the end of the file behind `fd` (opened O_APPEND). When a write
 * fails after some of the bytes went out, those bytes are cut off again (the file is truncated
 * by as many bytes as were written, assuming no other writer appended since) and the error is
 * thrown.
 */
function writeAll(fd: number, text: string): void {
  const size = Buffer.byteLength(text, 'utf8')
  let done = 0
  try {
    // The text goes out as it is (no Buffer copy of it) unless the write stops short.
    done = writeSync(fd, text)
    if (done >= size) return
    const bytes = Buffer.from(text, 'utf8')
    while (done < size) {
      const wrote = writeSync(fd, bytes, done, size - done)
      if (wrote <= 0) throw new Error(`the write stopped after ${done} of ${size} bytes`)
      done += wrote
    }
  } catch (error) {
    if (done > 0) {
      try {
        ftruncateSync(fd, Math.max(0, fstatSync(fd).size - done))
      } catch { /* nothing more can be done; the warning still goes out */ }
    }
    throw error
  }
}

/** How many lines `text` holds (each ends with its newline). */
function countLines(text: string): number {
  let lines = 0
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++
  return lines
}
