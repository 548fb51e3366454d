import { symlink } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { codeOf, textOf, valueOf, workspace } from './helpers.js'

describe('list_dir', () => {
  it('lists the root by default: sorted, with kinds and file sizes', async () => {
    const ws = await workspace()
    await ws.put({ 'b.txt': 'hello', 'a/x.txt': '' })
    await symlink(path.join(ws.root, 'b.txt'), path.join(ws.root, 'c'))
    const result = await ws.call('list_dir', {})
    expect(valueOf(result)).toEqual({
      path: '.',
      entries: [{ name: 'a', type: 'dir' }, { name: 'b.txt', type: 'file', size: 5 }, { name: 'c', type: 'symlink' }],
      total: 3,
      truncated: false,
    })
    expect(textOf(result)).toBe('.: 3 entries\na/\nb.txt  (5 bytes)\nc@')
  })

  it('returns at most maxEntries and says how many there are', async () => {
    const ws = await workspace({ maxEntries: 2 })
    await ws.put({ 'sub/1': '', 'sub/2': '', 'sub/3': '' })
    const result = await ws.call('list_dir', { path: 'sub' })
    expect(valueOf(result)).toMatchObject({ path: 'sub', total: 3, truncated: true, entries: [{ name: '1' }, { name: '2' }] })
    expect(textOf(result)).toBe('sub: 3 entries\n1  (0 bytes)\n2  (0 bytes)\n[1 more entries not shown; use glob to narrow down]')
  })

  it('refuses a file and a missing folder with their own codes', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': '' })
    expect(codeOf(await ws.call('list_dir', { path: 'a.txt' }))).toBe('WRONG_TYPE')
    expect(codeOf(await ws.call('list_dir', { path: 'nope' }))).toBe('NOT_FOUND')
  })
})
