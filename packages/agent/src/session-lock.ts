/**
 * One writer per session file. A store open for writing holds `<file>.lock` (next to the real
 * file, symlinks followed, so every path to it meets the same lock): a file created with
 * O_EXCL that names its holder (pid, host, the process' start time and pid namespace where the
 * system tells them, and a random token of this lock). `close()` removes it. A second writer finds it and is
 * refused at once, told who holds the file, unless the lock is stale:
 *
 * - its process has ended (no such pid on this host, or a zombie), or the pid now belongs to a
 *   process started at another time (a reused pid, where `/proc` shows start times);
 * - it names this process but no store of this process holds it (a process before this one,
 *   with the same pid: the rule after a container restart).
 *
 * A stale lock is taken over. Anything not shown to be stale is held: a lock of another host or
 * pid namespace (which cannot be checked from here) or one that does not name its holder is never taken
 * over; the error says which file to remove once its writer is surely gone. Taking over is
 * itself one writer at a time, through numbered guards (`<file>.lock.takeover.<n>`): a taker
 * creates the next number above every guard there, each of whose holders must have ended, so
 * two processes that find the same stale lock cannot both get it, and a takeover killed
 * half-way (its guard left behind) is passed over by the next one. A lock or guard file is
 * written whole under a name of its own and then linked into place, so it is never seen
 * empty, even when its writer is killed while writing it.
 */
import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { link, open, readFile, readdir, readlink, unlink, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'

/** A writer lock this process holds. */
export interface WriterLock {
  /** The lock file. */
  readonly path: string
  /** Removes the lock file (if it is still this lock's). */
  release(): Promise<void>
}

/** Who holds a lock, as its file says. */
interface Holder {
  pid: number
  host: string
  /** The holder's start time in clock ticks since boot (Linux), when known. */
  start?: string
  /** The holder's pid namespace (Linux), when known: pids of another namespace cannot be checked from here. */
  ns?: string
  since: string
  token: string
}

/** Is the lock stale, and if held: by whom, what the lock says of it, and what to do, in words. */
type Verdict = { stale: true } | { stale: false, who: string, detail: string, hint: string }

const ATTEMPTS = 4
const MAX_PID = 2 ** 31 - 1
const LOCKED = 'SESSION_LOCKED'
// The tokens of the locks this process holds, shared by every copy of this module in the process.
const held: Set<string> = ((globalThis as Record<symbol, unknown>)[Symbol.for('rein.jsonlSession.heldLocks')] ??= new Set<string>()) as Set<string>

/**
 * Takes the writer lock of session file `file` (the lock file `lock`), or throws an error
 * (`code` `SESSION_LOCKED`) naming the file, the holder and what to do.
 */
export async function takeWriterLock(file: string, lock: string): Promise<WriterLock> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const token = await createOwned(lock)
    if (token !== undefined) return { path: lock, release: () => releaseLock(lock, token) }
    const text = await readText(lock)
    if (text === undefined) continue // let go of in between: try again
    const holder = parseHolder(text)
    const verdict = await judge(holder)
    if (!verdict.stale) {
      throw locked(`session file ${file} is already open for writing by ${verdict.who} (${verdict.detail}; lock ${lock}); ${verdict.hint}`)
    }
    await removeStale(file, lock, text)
  }
  throw locked(`session file ${file}: its writer lock ${lock} changed hands ${ATTEMPTS} times while this store tried to take it; ` +
    'another process is opening the same file: one writer at a time')
}

/**
 * Creates the lock file `path` (O_EXCL, 0600) naming this process; resolves its token, or
 * undefined when the file exists. The token counts as held from before the file exists, so
 * another store of this process never finds the lock without its holder.
 */
async function createOwned(path: string): Promise<string | undefined> {
  const me = await ownHolder()
  held.add(me.token)
  try {
    return await createLockFile(path, me) ? me.token : dropToken(me.token)
  } catch (error) {
    held.delete(me.token)
    throw error
  }
}

function dropToken(token: string): undefined {
  held.delete(token)
  return undefined
}

/**
 * Creates `path` (0600) holding `holder`, whole: written under a name of its own, then linked
 * into place, which fails when `path` exists. False when it exists. Where the file system has
 * no hard links, the file is created with O_EXCL and then written (`createExclusive`).
 */
async function createLockFile(path: string, holder: Holder): Promise<boolean> {
  const temp = `${path}.${holder.token}.tmp`
  try {
    await writeFile(temp, `${JSON.stringify(holder)}\n`, { mode: 0o600, flag: 'wx' })
    await link(temp, path)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') return createExclusive(path, holder)
    throw error
  } finally {
    await unlink(temp).catch(() => {})
  }
}

/** Creates `path` (O_EXCL, 0600), then writes `holder` into it; false when it exists. */
async function createExclusive(path: string, holder: Holder): Promise<boolean> {
  let handle
  try {
    handle = await open(path, 'wx', 0o600)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
  try {
    await handle.writeFile(`${JSON.stringify(holder)}\n`)
    await handle.close()
  } catch (error) {
    await handle.close().catch(() => {})
    await unlink(path).catch(() => {})
    throw error
  }
  return true
}

/**
 * Removes the stale lock whose text is `text`, under a takeover guard: it is removed only if
 * it still holds that text, and only a takeover ever removes another process' lock. The guard
 * goes when done, with the guards below it (takeovers whose processes ended half-way).
 */
async function removeStale(file: string, lock: string, text: string): Promise<void> {
  const guard = await takeGuard(file, lock)
  try {
    if (await readText(lock) === text) await unlink(lock).catch(ignoreMissing)
  } finally {
    for (const path of [...guard.ended, guard.path]) await unlink(path).catch(() => {})
    held.delete(guard.token)
  }
}

/** A takeover guard this process created, and the guards it found whose processes had ended. */
interface Guard {
  path: string
  token: string
  ended: string[]
}

/**
 * Creates the takeover guard numbered one above every guard of `lock` there is, once each of
 * those is shown stale (its process ended half-way through a takeover); throws `SESSION_LOCKED`
 * while a live one is taking the lock over. Of two takers that count the same guards, O_EXCL
 * lets one create the number; the other counts again and finds it live.
 */
async function takeGuard(file: string, lock: string): Promise<Guard> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const guards = await guardsOf(lock)
    for (const guard of guards) {
      const text = await readText(guard.path)
      if (text === undefined) continue // gone since the listing
      const holder = parseHolder(text)
      if (!(await judge(holder)).stale) throw takeoverBusy(file, guard.path, holder)
    }
    const path = `${lock}.takeover.${(guards.at(-1)?.n ?? 0) + 1}`
    const token = await createOwned(path)
    if (token !== undefined) return { path, token, ended: guards.map((guard) => guard.path) }
  }
  throw locked(`session file ${file}: its stale writer lock ${lock} is being taken over by other processes ` +
    `(${ATTEMPTS} tries to take a turn); one writer at a time: try again once they are done`)
}

/** The takeover guards of `lock`, lowest number first: `<lock>.takeover.<n>`, and `<lock>.takeover` (0, as an earlier rein named it). */
async function guardsOf(lock: string): Promise<Array<{ n: number, path: string }>> {
  const folder = dirname(lock)
  const stem = `${basename(lock)}.takeover`
  const guards: Array<{ n: number, path: string }> = []
  for (const name of await readdir(folder)) {
    const n = guardNumber(name, stem)
    if (n !== undefined) guards.push({ n, path: join(folder, name) })
  }
  return guards.sort((a, b) => a.n - b.n)
}

/** The number of guard file `name` (`<stem>` is 0, `<stem>.<n>` is n), undefined for any other file. */
function guardNumber(name: string, stem: string): number | undefined {
  if (name === stem) return 0
  const suffix = name.startsWith(`${stem}.`) ? name.slice(stem.length + 1) : ''
  return /^[1-9]\d{0,14}$/.test(suffix) ? Number(suffix) : undefined
}

function takeoverBusy(file: string, guard: string, holder: Holder | undefined): Error {
  const who = holder ? `rein pid ${holder.pid} on ${holder.host}` : 'another process'
  return locked(`session file ${file}: its stale writer lock is being taken over by ${who} (${guard}); ` +
    `one writer at a time: try again once it is done; if no process is opening the file, remove ${guard}`)
}

/** Whether the lock of `holder` is stale (see the file's comment), and if not who holds it. */
async function judge(holder: Holder | undefined): Promise<Verdict> {
  const retry = 'one writer at a time: close that store or end its process, then open it again'
  if (holder === undefined) {
    return {
      stale: false, who: 'an unknown writer', detail: 'the lock is empty or damaged: a writer may be taking it this moment',
      hint: 'one writer at a time: if no process is using the file, remove the lock, then open it again',
    }
  }
  const detail = `rein pid ${holder.pid} on ${holder.host} since ${holder.since}`
  const me = await ownIdentity()
  if (holder.host !== hostname() || (holder.ns !== undefined && me.ns !== undefined && holder.ns !== me.ns)) {
    const hint = `${retry}; a lock of another host (or pid namespace) cannot be checked from here: if that process is gone, remove the lock`
    return { stale: false, who: 'another process', detail, hint }
  }
  if (holder.pid === process.pid) {
    if (!held.has(holder.token)) return { stale: true }
    const hint = 'one writer at a time: close() that store, then open it again'
    return { stale: false, who: 'another store of this process', detail: `pid ${process.pid}`, hint }
  }
  if (!(await isRunning(holder))) return { stale: true }
  return { stale: false, who: 'another process', detail, hint: `${retry} (a lock whose process has ended is taken over)` }
}

/** Whether the process `holder` names still runs: that pid exists, is no zombie, and started when the holder did. */
async function isRunning(holder: Holder): Promise<boolean> {
  try {
    process.kill(holder.pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
  }
  const status = await processStatus(holder.pid)
  if (status === undefined) return true
  if (status.state === 'Z') return false
  return holder.start === undefined || holder.start === status.start
}

/** The state and start time of process `pid` from `/proc/<pid>/stat` (Linux); undefined where unknown. */
async function processStatus(pid: number): Promise<{ state: string, start: string } | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined)
  if (text === undefined) return undefined
  // `pid (name) state ...`: the name may hold spaces and parentheses, the fields after it do not.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const start = fields[19]
  return fields[0] && /^\d+$/.test(start ?? '') ? { state: fields[0], start } : undefined
}

let identity: Promise<{ start?: string, ns?: string }> | undefined

/** This process' start time and pid namespace (Linux), each when known; read once. */
function ownIdentity(): Promise<{ start?: string, ns?: string }> {
  return identity ??= (async () => {
    const start = (await processStatus(process.pid))?.start
    const ns = await readlink('/proc/self/ns/pid').catch(() => undefined)
    return { ...(start === undefined ? {} : { start }), ...(ns === undefined ? {} : { ns }) }
  })()
}

async function ownHolder(): Promise<Holder> {
  return {
    pid: process.pid, host: hostname(), ...await ownIdentity(),
    since: new Date().toISOString(), token: randomBytes(16).toString('hex'),
  }
}

/** The holder a lock file names, or undefined when its text is not one (empty: being written; damaged). */
function parseHolder(text: string): Holder | undefined {
  let value: Partial<Holder>
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  const { pid, host, start, ns, since, token } = value ?? {}
  // A pid of 0 or less would make kill() mean a whole process group: only a real pid is a holder.
  if (!Number.isInteger(pid) || pid! <= 0 || pid! > MAX_PID || typeof host !== 'string' || typeof token !== 'string') return undefined
  if ((start !== undefined && typeof start !== 'string') || (ns !== undefined && typeof ns !== 'string')) return undefined
  return { pid: pid!, host, start, ns, since: typeof since === 'string' ? since : 'an unknown time', token }
}

/** Removes the lock file if it is still the one with `token`. */
async function releaseLock(lock: string, token: string): Promise<void> {
  const text = await readText(lock)
  if (text !== undefined && parseHolder(text)?.token === token) await unlink(lock).catch(ignoreMissing)
  held.delete(token)
}

/** The text of lock file `path`, undefined when there is none; '' (no holder) when it is not a regular file. */
async function readText(path: string): Promise<string | undefined> {
  let handle
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    if (code === 'EISDIR' || code === 'ENXIO') return ''
    throw error
  }
  try {
    return (await handle.stat()).isFile() ? await handle.readFile('utf8') : ''
  } finally {
    await handle.close()
  }
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
}

function locked(message: string): Error {
  return Object.assign(new Error(message), { code: LOCKED })
}
