import { symlink } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { keepInside } from '../src/index.js'
import { tree } from './helpers.js'

describe('keepInside', () => {
  it('keeps regular files inside the root, in order, and drops what a link on the way leads outside', async () => {
    const t = await tree()
    await t.put({ 'a.txt': 'a', 'dir/b.txt': 'b' })
    await symlink(t.outside, path.join(t.root, 'out'))
    await symlink(path.join(t.root, 'a.txt'), path.join(t.root, 'alias.txt'))
    const files = ['dir/b.txt', 'a.txt', 'dir', 'out/secret.txt', 'alias.txt', 'missing.txt'].map((file) => path.join(t.root, file))
    expect(await keepInside(t.open(), files, new AbortController().signal)).toEqual([path.join(t.root, 'dir/b.txt'), path.join(t.root, 'a.txt')])
  })

  it('stops with the signal\'s reason once it aborts', async () => {
    const t = await tree()
    await t.put({ 'a.txt': 'a' })
    const reason = new Error('stop')
    await expect(keepInside(t.open(), [path.join(t.root, 'a.txt')], AbortSignal.abort(reason))).rejects.toBe(reason)
  })
})
