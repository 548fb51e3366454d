import { execFileSync } from 'node:child_process'
import { chown, chmod, link, mkdir, readdir, readFile, rename, stat, symlink } from 'node:fs/promises'
import { createServer } from 'node:net'
import path from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { NOT_FOUND, replaceFile, TOOL_DENIED, WRONG_TYPE } from '../src/index.js'
import { codeOfRejection, SECRET, tree } from './helpers.js'

const bytes = (text: string) => Buffer.from(text, 'utf8')

/** The names in `folder`, sorted: a temporary file left behind shows up here. */
async function names(folder: string): Promise<string[]> {
  return (await readdir(folder)).sort()
}

describe('replaceFile', () => {
  it('creates a file and its missing folders when asked, with the usual mode for a new file', async () => {
    const t = await tree()
    const root = t.open()
    const { real } = await root.resolve('a/b/new.txt')
    expect(await replaceFile(root, real, 'a/b/new.txt', bytes('one'), { makeFolders: true })).toEqual({ created: true })
    expect(await readFile(real, 'utf8')).toBe('one')
    expect(await names(path.dirname(real))).toEqual(['new.txt'])
    await t.put({ 'usual.txt': '' }) // created the usual way: 0o666 less the umask
    expect((await stat(real)).mode & 0o7777).toBe((await stat(path.join(t.root, 'usual.txt'))).mode & 0o7777)
  })

  it('replaces a file through a new one: a new inode, the old mode, no temporary file left', async () => {
    const t = await tree()
    await t.put({ 'sub/a.txt': 'old content that is longer' })
    const file = path.join(t.root, 'sub/a.txt')
    await chmod(file, 0o751)
    const before = await stat(file)
    const root = t.open()
    expect(await replaceFile(root, file, 'sub/a.txt', bytes('new'))).toEqual({ created: false })
    const after = await stat(file)
    expect(await readFile(file, 'utf8')).toBe('new')
    expect(after.ino).not.toBe(before.ino)
    expect(after.mode & 0o7777).toBe(0o751)
    expect(await names(path.join(t.root, 'sub'))).toEqual(['a.txt'])
  })

  it.runIf(process.getuid?.() === 0)('keeps the owner and group of the file it replaces (when allowed to)', async () => {
    const t = await tree()
    await t.put({ 'a.txt': 'old' })
    const file = path.join(t.root, 'a.txt')
    await chown(file, 1234, 5678)
    await replaceFile(t.open(), file, 'a.txt', bytes('new'))
    expect(await stat(file)).toMatchObject({ uid: 1234, gid: 5678 })
  })

  it('gives the name a new file: another hard link to the old one keeps the old content', async () => {
    const t = await tree()
    await t.put({ 'a.txt': 'old' })
    await link(path.join(t.root, 'a.txt'), path.join(t.root, 'b.txt'))
    await replaceFile(t.open(), path.join(t.root, 'a.txt'), 'a.txt', bytes('new'))
    expect(await readFile(path.join(t.root, 'a.txt'), 'utf8')).toBe('new')
    expect(await readFile(path.join(t.root, 'b.txt'), 'utf8')).toBe('old')
  })

  it('without makeFolders, answers NOT_FOUND for a missing folder and makes nothing', async () => {
    const t = await tree()
    const root = t.open()
    const { real } = await root.resolve('gone/a.txt')
    expect(await codeOfRejection(replaceFile(root, real, 'gone/a.txt', bytes('x')))).toBe(NOT_FOUND)
    expect(await names(t.root)).toEqual([])
  })

  it('refuses the root, a folder, a FIFO and a socket at once, naming the path as given, and makes nothing', async () => {
    const t = await tree()
    await mkdir(path.join(t.root, 'dir'))
    execFileSync('mkfifo', [path.join(t.root, 'pipe')])
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(path.join(t.root, 'sock'), resolve))
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const root = t.open()
    expect(await codeOfRejection(replaceFile(root, t.root, '.', bytes('x')))).toBe(WRONG_TYPE)
    for (const [name, kind] of [['dir', 'a directory'], ['pipe', 'a FIFO'], ['sock', 'a socket']]) {
      await expect(replaceFile(root, path.join(t.root, name), name, bytes('x')))
        .rejects.toMatchObject({ code: WRONG_TYPE, message: `"${name}" is ${kind}, not a regular file` })
    }
    expect(await names(t.root)).toEqual(['dir', 'pipe', 'sock'])
  })

  it('refuses a link at the end of the name, never writing through it nor replacing it', async () => {
    const t = await tree()
    await symlink(path.join(t.outside, 'secret.txt'), path.join(t.root, 'link.txt'))
    const root = t.open()
    // As if the link appeared after the path was resolved.
    expect(await codeOfRejection(replaceFile(root, path.join(t.root, 'link.txt'), 'link.txt', bytes('planted')))).toBe(TOOL_DENIED)
    expect(await readFile(path.join(t.outside, 'secret.txt'), 'utf8')).toBe(SECRET)
    expect((await stat(path.join(t.root, 'link.txt'))).isFile()).toBe(true) // still the link, to the untouched secret
    expect(await names(t.root)).toEqual(['link.txt'])
  })

  it('refuses when a folder on the way was swapped for a link after the check, and makes nothing outside', async () => {
    const t = await tree()
    await t.put({ 'sub/keep.txt': 'kept' })
    const root = t.open()
    const targets = await Promise.all(['sub/new.txt', 'sub/deep/er/new.txt', 'sub/keep.txt'].map((input) => root.resolve(input)))
    await rename(path.join(t.root, 'sub'), path.join(t.root, 'sub.away'))
    await symlink(t.outside, path.join(t.root, 'sub'))
    for (const { real, shown } of targets) {
      expect(await codeOfRejection(replaceFile(root, real, shown, bytes('planted'), { makeFolders: true })), shown).toBe(TOOL_DENIED)
    }
    expect(await names(t.outside)).toEqual(['secret.txt'])
    expect(await readFile(path.join(t.outside, 'secret.txt'), 'utf8')).toBe(SECRET)
  })

  it('stops on an aborted signal after making its new file, removes that file and leaves the old one as it was', async () => {
    const t = await tree()
    await t.put({ 'a.txt': 'old' })
    const file = path.join(t.root, 'a.txt')
    const before = await stat(file)
    const controller = new AbortController()
    const reason = new Error('stop')
    controller.abort(reason)
    await expect(replaceFile(t.open(), file, 'a.txt', bytes('new'), { signal: controller.signal })).rejects.toBe(reason)
    expect(await readFile(file, 'utf8')).toBe('old')
    expect((await stat(file)).ino).toBe(before.ino)
    expect(await names(t.root)).toEqual(['a.txt'])
  })
})
