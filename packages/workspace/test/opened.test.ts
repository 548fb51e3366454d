import { execFileSync } from 'node:child_process'
import { rename, symlink } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkProcFd, FOR, NOT_FOUND, openInside, type Root, TOOL_DENIED, whereIs, within, WRONG_TYPE } from '../src/index.js'
import { codeOfRejection, tree } from './helpers.js'

describe('openInside', () => {
  it('opens a resolved path and reads through the checked descriptor', async () => {
    const t = await tree()
    await t.put({ 'sub/a.txt': 'inside\n' })
    const root = t.open()
    const { real } = await root.resolve('sub/a.txt')
    const handle = await openInside(root, real, FOR.read, 'sub/a.txt')
    try {
      expect(await whereIs(handle)).toBe(real)
      expect(await handle.readFile('utf8')).toBe('inside\n')
    } finally {
      await handle.close()
    }
  })

  it('refuses a path whose folder was swapped for a link to the outside after it was resolved', async () => {
    const t = await tree()
    await t.put({ 'sub/secret.txt': 'inside\n' })
    const root = t.open()
    const file = await root.resolve('sub/secret.txt')
    const folder = await root.resolve('sub')
    await rename(path.join(t.root, 'sub'), path.join(t.root, 'sub.away'))
    await symlink(t.outside, path.join(t.root, 'sub'))
    for (const [target, flags] of [[file.real, FOR.read], [file.real, FOR.edit], [file.real, FOR.look], [folder.real, FOR.folder]] as const) {
      const refused = openInside(root, target, flags, 'sub/secret.txt')
      await expect(refused).rejects.toMatchObject({ code: TOOL_DENIED })
      await expect(refused).rejects.toThrow(/path "sub\/secret\.txt" is refused: it was changed while being opened/)
    }
    // FOR.look opens a link at the end of the path as the link itself, for the caller to see.
    const link = await openInside(root, folder.real, FOR.look, 'sub')
    try {
      expect((await link.stat()).isSymbolicLink()).toBe(true)
    } finally {
      await link.close()
    }
  })

  it('answers NOT_FOUND for a missing path and WRONG_TYPE for a file opened as a folder', async () => {
    const t = await tree()
    await t.put({ 'a.txt': '' })
    const root = t.open()
    expect(await codeOfRejection(openInside(root, path.join(t.root, 'nope'), FOR.read, 'nope'))).toBe(NOT_FOUND)
    await expect(openInside(root, path.join(t.root, 'a.txt'), FOR.folder, 'a.txt', '"a.txt" is a file'))
      .rejects.toMatchObject({ code: WRONG_TYPE, message: '"a.txt" is a file' })
  })

  it('opens a FIFO for reading at once, without waiting for a writer', async () => {
    const t = await tree()
    execFileSync('mkfifo', [path.join(t.root, 'pipe')])
    const root = t.open()
    const handle = await openInside(root, path.join(t.root, 'pipe'), FOR.read, 'pipe')
    try {
      expect((await handle.stat()).isFIFO()).toBe(true)
    } finally {
      await handle.close()
    }
  })

  it('reaches a name inside an open folder through within()', async () => {
    const t = await tree()
    await t.put({ 'sub/a.txt': 'a' })
    const root = t.open()
    const dir = await openInside(root, path.join(t.root, 'sub'), FOR.folder, 'sub')
    try {
      expect(within(dir)).toBe(`/proc/self/fd/${dir.fd}`)
      const file = await openInside(root, within(dir, 'a.txt'), FOR.read, 'sub/a.txt')
      expect(await file.readFile('utf8')).toBe('a')
      await file.close()
    } finally {
      await dir.close()
    }
  })
})

describe('checkProcFd', () => {
  it('passes for a real root and fails with what is needed when the root cannot be opened', async () => {
    const t = await tree()
    expect(() => checkProcFd(t.open(), 'test')).not.toThrow()
    const gone = { real: path.join(t.root, 'missing'), path: t.root } as Root
    expect(() => checkProcFd(gone, 'owner')).toThrow(/^owner: cannot tell where an opened file is .*Linux with \/proc mounted/)
  })
})
