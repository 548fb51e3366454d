import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, realpathSync } from 'node:fs'
import { readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, onTestFinished } from 'vitest'
import { jsonlSession, type NewSessionEntry, type SessionStore } from '../src/index.js'
import { tempDir } from './helpers.js'

const child = fileURLToPath(new URL('./fixtures/writer-child.mjs', import.meta.url))
const built = fileURLToPath(new URL('../dist/src/index.bundle.js', import.meta.url))

const entry: NewSessionEntry = { type: 'turn/end', turn: 1, outcome: 'committed' }
const sessionPath = async () => join(await tempDir('rein-lock-'), 'session.jsonl')
const lockOf = (path: string) => `${realpathSync(path)}.lock`
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: Error & { code?: string }) => error)
/** A pid no process has: a child that ran and was reaped. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!

/** Writes the lock of `path` as a writer would, with `fields` changed. */
async function writeLock(path: string, fields: Record<string, unknown>) {
  const holder = { pid: process.pid, host: hostname(), since: '2024-01-01T00:00:00.000Z', token: 'earlier', ...fields }
  await writeFile(lockOf(path), `${JSON.stringify(holder)}\n`)
}

/** A session file holding one entry, written and closed. */
async function existingSession(): Promise<string> {
  const path = await sessionPath()
  const store = jsonlSession(path)
  await store.append(entry)
  await store.close?.()
  return path
}

/** Opens `store`, appends to it and closes it: it had the file for writing. */
async function expectWriter(store: SessionStore, seq: number) {
  expect((await store.append(entry)).seq).toBe(seq)
  await store.close?.()
}

describe('one writer per session file, in one process', () => {
  it('refuses a second store while the first is open, naming the file, the holder and the fix; a new one opens after close', async () => {
    const path = await sessionPath()
    const first = jsonlSession(path)
    await first.append(entry)
    const second = jsonlSession(path)
    const error = await failure(second.load())
    expect(error?.message).toBe(`session file ${path} is already open for writing by another store of this process (pid ${process.pid}; ` +
      `lock ${lockOf(path)}); one writer at a time: close() that store, then open it again`)
    expect(error?.code).toBe('SESSION_LOCKED')
    await expect(second.append(entry)).rejects.toThrow(error!.message)
    expect(await readFile(path, 'utf8')).toBe(`${JSON.stringify({ ...entry, seq: 1 })}\n`)
    await first.close?.()
    expect(existsSync(lockOf(path))).toBe(false)
    await expectWriter(jsonlSession(path), 2)
  })

  it('lets a refused store in on a later call, once the holder has closed', async () => {
    const path = await sessionPath()
    const first = jsonlSession(path)
    await first.append(entry)
    const second = jsonlSession(path)
    await expect(second.append(entry)).rejects.toThrow('already open for writing')
    await first.close?.()
    await expectWriter(second, 2)
  })

  it('lets the same store open again after its close()', async () => {
    const path = await sessionPath()
    const store = jsonlSession(path)
    await store.append(entry)
    await store.close?.()
    await expectWriter(store, 2)
  })

  it('meets the same lock through a symlink to the file', async () => {
    const path = await existingSession()
    const link = join(await tempDir('rein-lock-'), 'link.jsonl')
    await symlink(path, link)
    const first = jsonlSession(path)
    await first.load()
    await expect(jsonlSession(link).load()).rejects.toThrow(`session file ${link} is already open for writing by another store of this process`)
    await first.close?.()
  })

  it('takes over a lock whose process has ended', async () => {
    const path = await existingSession()
    await writeLock(path, { pid: deadPid() })
    await expectWriter(jsonlSession(path), 2)
    expect(existsSync(lockOf(path))).toBe(false)
  })

  it('takes over a lock naming this pid that no store of this process holds (a process before this one, with the same pid)', async () => {
    const path = await existingSession()
    await writeLock(path, { pid: process.pid })
    await expectWriter(jsonlSession(path), 2)
  })

  it('takes over a lock whose pid now belongs to a process started at another time (a reused pid)', async () => {
    const path = await existingSession()
    await writeLock(path, { pid: process.ppid, start: '1' })
    await expectWriter(jsonlSession(path), 2)
  })

  it('never takes over a lock of a live process, nor one of another host or pid namespace, nor one that does not name its holder', async () => {
    const path = await existingSession()
    const lock = lockOf(path)
    await writeLock(path, { pid: process.ppid })
    expect((await failure(jsonlSession(path).load()))?.message).toBe(`session file ${path} is already open for writing by another process ` +
      `(rein pid ${process.ppid} on ${hostname()} since 2024-01-01T00:00:00.000Z; lock ${lock}); one writer at a time: close that store ` +
      'or end its process, then open it again (a lock whose process has ended is taken over)')
    await writeLock(path, { pid: deadPid(), host: 'elsewhere' })
    const pid = JSON.parse(await readFile(lock, 'utf8')).pid
    expect((await failure(jsonlSession(path).load()))?.message).toBe(`session file ${path} is already open for writing by another process ` +
      `(rein pid ${pid} on elsewhere since 2024-01-01T00:00:00.000Z; lock ${lock}); one writer at a time: close that store or end its process, then open ` +
      'it again; a lock of another host (or pid namespace) cannot be checked from here: if that process is gone, remove the lock')
    await writeLock(path, { pid: deadPid(), ns: 'pid:[1]' })
    await expect(jsonlSession(path).load()).rejects.toThrow('a lock of another host (or pid namespace) cannot be checked from here')
    await writeFile(lock, '')
    expect((await failure(jsonlSession(path).load()))?.message).toBe(`session file ${path} is already open for writing by an unknown writer ` +
      `(the lock is empty or damaged: a writer may be taking it this moment; lock ${lock}); one writer at a time: ` +
      'if no process is using the file, remove the lock, then open it again')
    expect(await readFile(lock, 'utf8')).toBe('')
  })

  it('takes over a stale lock when earlier takeovers were killed half-way, their guards left behind (the old name and numbered ones)', async () => {
    const path = await existingSession()
    await writeLock(path, { pid: deadPid() })
    const guards = [`${lockOf(path)}.takeover`, `${lockOf(path)}.takeover.1`, `${lockOf(path)}.takeover.2`]
    for (const guard of guards) await writeFile(guard, JSON.stringify({ pid: deadPid(), host: hostname(), since: 'then', token: 'gone' }))
    const store = jsonlSession(path)
    expect((await store.load()).map((e) => e.seq)).toEqual([1])
    expect(JSON.parse(await readFile(lockOf(path), 'utf8'))).toMatchObject({ pid: process.pid })
    for (const guard of guards) expect(existsSync(guard), guard).toBe(false)
    expect(existsSync(`${lockOf(path)}.takeover.3`)).toBe(false)
    await expectWriter(store, 2)
  })

  it('refuses while a live process is taking a stale lock over, naming its guard', async () => {
    const path = await existingSession()
    await writeLock(path, { pid: deadPid() })
    const guard = `${lockOf(path)}.takeover.4`
    await writeFile(guard, JSON.stringify({ pid: process.ppid, host: hostname(), since: 'now', token: 'taking' }))
    const error = await failure(jsonlSession(path).load())
    expect(error?.message).toBe(`session file ${path}: its stale writer lock is being taken over by rein pid ${process.ppid} on ${hostname()} ` +
      `(${guard}); one writer at a time: try again once it is done; if no process is opening the file, remove ${guard}`)
    expect(error?.code).toBe('SESSION_LOCKED')
    expect(existsSync(lockOf(path))).toBe(true)
    expect(existsSync(guard)).toBe(true)
  })

  it.each([
    ['', false],
    [', past the guard a killed takeover left', true],
  ])('gives a stale lock to exactly one of many stores racing for it%s', async (_, guardLeft) => {
    const path = await existingSession()
    await writeLock(path, { pid: deadPid() })
    if (guardLeft) await writeFile(`${lockOf(path)}.takeover.1`, JSON.stringify({ pid: deadPid(), host: hostname(), since: 'then', token: 'gone' }))
    const stores = Array.from({ length: 8 }, () => jsonlSession(path))
    const results = await Promise.allSettled(stores.map((store) => store.load()))
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'SESSION_LOCKED' })
    await Promise.all(stores.map((store) => store.close?.()))
    expect(existsSync(lockOf(path))).toBe(false)
    // No guard and no half-made lock file is left behind by the winner or the losers.
    expect((await readdir(dirname(lockOf(path)))).filter((name) => name.includes('.takeover') || name.endsWith('.tmp'))).toEqual([])
    await expectWriter(jsonlSession(path), 2)
  })
})

/** A writer child on `path`: its process and its next line of output. */
function startWriter(path: string) {
  const proc = spawn(process.execPath, [child, path], { stdio: ['pipe', 'pipe', 'pipe'] }) as ChildProcessWithoutNullStreams
  onTestFinished(async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return
    proc.kill('SIGKILL')
    await once(proc, 'exit')
  })
  let err = ''
  proc.stderr.on('data', (chunk) => { err += chunk })
  const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]()
  const next = async () => {
    const { value, done } = await lines.next()
    if (done) throw new Error(`the writer child ended without a word: ${err}`)
    return value as string
  }
  return { proc, next }
}

describe('one writer per session file, across processes', () => {
  it('refuses a second process while the first holds the file, and lets it in once the first has closed', async () => {
    expect(existsSync(built), 'build @rein/agent first: npx -y pnpm@10 build').toBe(true)
    const path = await sessionPath()
    const first = startWriter(path)
    expect(await first.next()).toBe(`open ${first.proc.pid}`)
    const second = startWriter(path)
    expect(await second.next()).toMatch(`refused session file ${path} is already open for writing by another process (rein pid ${first.proc.pid} on `)
    await expect(jsonlSession(path).load()).rejects.toThrow(`(rein pid ${first.proc.pid} on ${hostname()} since `)
    first.proc.stdin.write('close\n')
    expect(await first.next()).toBe('closed')
    await once(first.proc, 'exit')
    const store = jsonlSession(path)
    expect((await store.load()).map((e) => e.seq)).toEqual([1])
    await expectWriter(store, 2)
  })

  it('takes over the lock of a writer killed with SIGKILL, with every entry it had stored', async () => {
    expect(existsSync(built), 'build @rein/agent first: npx -y pnpm@10 build').toBe(true)
    const path = await sessionPath()
    const writer = startWriter(path)
    expect(await writer.next()).toBe(`open ${writer.proc.pid}`)
    writer.proc.kill('SIGKILL')
    await once(writer.proc, 'exit')
    expect(JSON.parse(await readFile(lockOf(path), 'utf8'))).toMatchObject({ pid: writer.proc.pid })
    const store = jsonlSession(path)
    expect(await store.load()).toEqual([{ type: 'message', message: { role: 'user', content: `from ${writer.proc.pid}` }, seq: 1 }])
    await expectWriter(store, 2)
  })
})
