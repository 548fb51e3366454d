import { symlink } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { codeOf, textOf, valueOf, workspace } from './helpers.js'

describe('glob', () => {
  it('finds files by pattern, sorted, relative to the root, dot files included', async () => {
    const ws = await workspace()
    await ws.put({ 'src/b.ts': '', 'src/a.ts': '', 'src/deep/c.ts': '', 'src/.hidden.ts': '', 'readme.md': '' })
    expect(valueOf(await ws.call('glob', { pattern: '**/*.ts' })))
      .toEqual({ files: ['src/.hidden.ts', 'src/a.ts', 'src/b.ts', 'src/deep/c.ts'], total: 4, truncated: false })
  })

  it('matches relative to path, and still answers with paths relative to the root', async () => {
    const ws = await workspace()
    await ws.put({ 'src/deep/c.ts': '', 'other/c.ts': '' })
    expect(valueOf(await ws.call('glob', { pattern: '**/c.ts', path: 'src' }))).toMatchObject({ files: ['src/deep/c.ts'] })
  })

  it('skips ignored folders and does not follow symbolic links', async () => {
    const ws = await workspace()
    await ws.put({ 'node_modules/x/i.js': '', '.git/config.js': '', 'a.js': '' })
    await symlink(ws.outside, path.join(ws.root, 'out'))
    await symlink(path.join(ws.root, 'a.js'), path.join(ws.root, 'alias.js'))
    expect(valueOf(await ws.call('glob', { pattern: '**/*' }))).toMatchObject({ files: ['a.js'], total: 1 })
  })

  it('returns at most maxEntries and says how many there are', async () => {
    const ws = await workspace({ maxEntries: 2 })
    await ws.put({ '1.txt': '', '2.txt': '', '3.txt': '' })
    const result = await ws.call('glob', { pattern: '*.txt' })
    expect(valueOf(result)).toEqual({ files: ['1.txt', '2.txt'], total: 3, truncated: true })
    expect(textOf(result)).toBe('3 files match "*.txt":\n1.txt\n2.txt\n[1 more files not shown; use a narrower pattern]')
  })

  it('says when nothing matches, and refuses a file as the folder', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': '' })
    expect(textOf(await ws.call('glob', { pattern: '*.rs' }))).toBe('No files match "*.rs".')
    expect(codeOf(await ws.call('glob', { pattern: '*', path: 'a.txt' }))).toBe('WRONG_TYPE')
  })
})
