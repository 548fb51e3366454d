import { execFileSync } from 'node:child_process'
import { readdir, readFile, rename, stat, symlink } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openForWrite, TOOL_DENIED, WRONG_TYPE } from '../src/index.js'
import { codeOfRejection, SECRET, tree } from './helpers.js'

describe('openForWrite', () => {
  it('creates the file and its missing folders, and opens an existing file without truncating it', async () => {
    const t = await tree()
    const root = t.open()
    const { real } = await root.resolve('a/b/new.txt')
    const made = await openForWrite(root, real, 'a/b/new.txt')
    expect(made.created).toBe(true)
    await made.handle.writeFile('one')
    await made.handle.close()
    const again = await openForWrite(root, real, 'a/b/new.txt')
    expect(again.created).toBe(false)
    await again.handle.close()
    expect(await readFile(real, 'utf8')).toBe('one')
  })

  it('refuses the root itself and a folder', async () => {
    const t = await tree()
    await t.put({ 'dir/x': '' })
    const root = t.open()
    expect(await codeOfRejection(openForWrite(root, t.root, '.'))).toBe(WRONG_TYPE)
    expect(await codeOfRejection(openForWrite(root, path.join(t.root, 'dir'), 'dir'))).toBe(WRONG_TYPE)
  })

  it('refuses a FIFO with WRONG_TYPE at once, naming the path as given, never an internal one', async () => {
    const t = await tree()
    execFileSync('mkfifo', [path.join(t.root, 'pipe')])
    const refused = openForWrite(t.open(), path.join(t.root, 'pipe'), 'pipe')
    await expect(refused).rejects.toMatchObject({ code: WRONG_TYPE, message: '"pipe" is a FIFO, socket or device, not a regular file' })
  })

  it('refuses a link at the end of the path, never writing through it', async () => {
    const t = await tree()
    await symlink(path.join(t.outside, 'secret.txt'), path.join(t.root, 'link.txt'))
    const root = t.open()
    // As if the link appeared after the path was resolved: the name is opened, never followed.
    expect(await codeOfRejection(openForWrite(root, path.join(t.root, 'link.txt'), 'link.txt'))).toBe(TOOL_DENIED)
    expect(await readFile(path.join(t.outside, 'secret.txt'), 'utf8')).toBe(SECRET)
  })

  it('refuses when a folder on the way was swapped for a link after the check, and makes nothing outside', async () => {
    const t = await tree()
    await t.put({ 'sub/keep.txt': '' })
    const root = t.open()
    const targets = await Promise.all(['sub/new.txt', 'sub/deep/er/new.txt', 'sub/keep.txt'].map((input) => root.resolve(input)))
    await rename(path.join(t.root, 'sub'), path.join(t.root, 'sub.away'))
    await symlink(t.outside, path.join(t.root, 'sub'))
    for (const { real, shown } of targets) {
      expect(await codeOfRejection(openForWrite(root, real, shown)), shown).toBe(TOOL_DENIED)
    }
    expect(await readdir(t.outside)).toEqual(['secret.txt'])
    await expect(stat(path.join(t.outside, 'deep'))).rejects.toThrow()
  })
})
