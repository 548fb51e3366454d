import { existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, statSync } from 'node:fs'
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as audit from '../src/index.js'
import { captureWarnings } from '@rein/testing'
import { kernelContext, readLines, registerTools, tempDir } from './helpers.js'

const stops: (() => void)[] = []
afterEach(() => {
  stops.splice(0).forEach((stop) => stop())
  vi.restoreAllMocks()
  vi.useRealTimers()
})

/** Runs `body` with the process umask set to `mask`, restoring it afterwards. */
async function withUmask<T>(mask: number, body: () => Promise<T>): Promise<T> {
  const before = process.umask(mask)
  try {
    return await body()
  } finally {
    process.umask(before)
  }
}

const modeOf = (path: string) => statSync(path).mode & 0o777

/** A harness auditing into `file`, after one call has been written. */
async function auditOneCall(file: string) {
  const ctx = await kernelContext()
  registerTools(ctx)
  ctx.plugin(audit, { file })
  await ctx.start()
  await ctx.tools.execute({ id: 'a', name: 'echo', arguments: {} })
}

describe('the audit file', () => {
  it.each(['000', '022', '277'])('is created 0600 in folders created 0700 (umask %s)', async (mask) => {
    const dir = await tempDir()
    const file = join(dir, 'logs', 'today', 'audit.jsonl')
    await withUmask(parseInt(mask, 8), () => auditOneCall(file))
    expect(modeOf(file)).toBe(0o600)
    expect(modeOf(join(dir, 'logs', 'today'))).toBe(0o700)
    expect(modeOf(join(dir, 'logs'))).toBe(0o700)
    expect(await readLines(file)).toMatchObject([{ id: 'a' }])
  })

  it('leaves the mode of a folder and a file that already exist as their owner set it', async () => {
    const dir = await tempDir()
    await chmod(dir, 0o750)
    const file = join(dir, 'audit.jsonl')
    await writeFile(file, '', { mode: 0o640 })
    await chmod(file, 0o640)
    await withUmask(0o000, () => auditOneCall(file))
    expect(modeOf(dir)).toBe(0o750)
    expect(modeOf(file)).toBe(0o640)
    expect(await readLines(file)).toMatchObject([{ id: 'a' }])
  })

  it('reports a write failure after the start once and never fails a call', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const dir = await tempDir()
    const file = join(dir, 'audit.jsonl')
    const ctx = await kernelContext()
    registerTools(ctx)
    const log = captureWarnings('audit', ctx)
    stops.push(log.stop)
    ctx.plugin(audit, { file })
    await ctx.start()
    // Rotated away, and a folder put in its place: the reopen after the next check fails.
    renameSync(file, join(dir, 'audit.jsonl.1'))
    mkdirSync(file)
    vi.setSystemTime(Date.now() + 1000)
    for (const id of ['a', 'b', 'c']) {
      const result = await ctx.tools.execute({ id, name: 'echo', arguments: { text: id } })
      expect(result).toMatchObject({ isError: false, value: id })
    }
    expect(log.warnings).toHaveLength(1)
    expect(log.warnings[0]).toContain(`cannot append to the audit file ${file}: the audit file ${file} is a folder`)
    expect(log.warnings[0]).toContain('reported once')
  })

  it('resolves a relative path from the current directory and creates missing folders', async () => {
    const dir = await tempDir()
    vi.spyOn(process, 'cwd').mockReturnValue(dir)
    const ctx = await kernelContext()
    registerTools(ctx)
    ctx.plugin(audit, { file: 'logs/today/audit.jsonl' })
    await ctx.start()
    await ctx.tools.execute({ id: 'a', name: 'echo', arguments: {} })
    expect(await readLines(join(dir, 'logs', 'today', 'audit.jsonl'))).toMatchObject([{ id: 'a' }])
  })

  it('appends to an existing file and holds every line by the time the plugin is disposed', async () => {
    const dir = await tempDir()
    const file = join(dir, 'audit.jsonl')
    await mkdir(dir, { recursive: true })
    await writeFile(file, '{"id":"earlier"}\n')
    const ctx = await kernelContext()
    registerTools(ctx)
    const fork = ctx.plugin(audit, { file })
    await ctx.start()
    await Promise.all(['a', 'b', 'c'].map((id) => ctx.tools.execute({ id, name: 'echo', arguments: {} })))
    fork.dispose()
    expect((await readLines(file)).map((l) => l.id)).toEqual(['earlier', 'a', 'b', 'c'])
    await ctx.tools.execute({ id: 'after', name: 'echo', arguments: {} })
    expect(await readLines(file)).toHaveLength(4)
    expect(ctx.tools.chain('tools/result')).toEqual([])
  })
})

describe('the appender behind it', () => {
  it('writes the lines appended until the microtask queue drains with one write, in order, to a 0600 file it keeps open', async () => {
    const file = join(await tempDir(), 'logs', 'audit.jsonl')
    const appender = audit.createAppender(file, () => {})
    expect(appender.written()).toBeUndefined()
    appender.append('one')
    const first = appender.written()!
    // Lines appended microtasks apart (calls settling one after another) join the same group.
    await Promise.resolve()
    appender.append('two')
    expect(appender.written()).toBe(first)
    expect(existsSync(file)).toBe(false)
    await first
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n')
    expect(appender.written()).toBeUndefined()
    appender.append('three')
    await appender.written()
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\nthree\n')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    appender.close()
  })

  it('settles written() even when the write fails and the warning throws', async () => {
    const dir = await tempDir()
    mkdirSync(join(dir, 'audit.jsonl')) // a folder where the file should be: every write fails
    const warned: string[] = []
    const appender = audit.createAppender(join(dir, 'audit.jsonl'), (message) => {
      warned.push(message)
      throw new Error('logger down')
    })
    appender.append('lost')
    await appender.written()
    expect(warned).toHaveLength(1)
    expect(warned[0]).toContain('cannot append to the audit file')
    appender.append('also lost')
    await appender.written()
    expect(warned).toHaveLength(1)
    appender.close()
  })

  it('marks the lines lost while the file could not be written with one auditGap line once it can, and says so', async () => {
    const file = join(await tempDir(), 'audit.jsonl')
    let clock = 0
    const warned: string[] = []
    const appender = audit.createAppender(file, (message) => warned.push(message), () => clock)
    appender.append('one')
    await appender.written()
    // Rotated away, and a folder in its place: every write fails until it goes.
    renameSync(file, `${file}.1`)
    mkdirSync(file)
    clock += 1000
    appender.append('two')
    await appender.written()
    appender.append('three')
    appender.append('four')
    await appender.written()
    rmdirSync(file)
    appender.append('five')
    await appender.written()
    appender.close()
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n')
    expect(JSON.parse(lines[0]!)).toMatchObject({ auditGap: { lines: 3, since: expect.any(String) } })
    expect(lines.slice(1)).toEqual(['five'])
    expect(readFileSync(`${file}.1`, 'utf8')).toBe('one\n')
    expect(warned).toEqual([expect.stringContaining('cannot append to the audit file'), expect.stringContaining('takes lines again; 3 were lost')])
  })

  it('writes what is pending when closed', async () => {
    const file = join(await tempDir(), 'audit.jsonl')
    const appender = audit.createAppender(file, () => {})
    appender.append('last words')
    appender.close()
    expect(readFileSync(file, 'utf8')).toBe('last words\n')
  })

  it('follows a rotation: after the check interval, lines go to a new file at the path; none is lost', async () => {
    const dir = await tempDir()
    const file = join(dir, 'audit.jsonl')
    let clock = 0
    const appender = audit.createAppender(file, () => {}, () => clock)
    appender.append('before')
    await appender.written()
    renameSync(file, join(dir, 'audit.jsonl.1'))
    appender.append('in the same second')
    await appender.written()
    clock += 1000
    appender.append('after')
    await appender.written()
    expect(readFileSync(join(dir, 'audit.jsonl.1'), 'utf8')).toBe('before\nin the same second\n')
    expect(readFileSync(file, 'utf8')).toBe('after\n')
    appender.close()
  })
})
