import { mkdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { codeOf, textOf, valueOf, workspace } from './helpers.js'

describe('write_file', () => {
  it('creates a file and its missing folders', async () => {
    const ws = await workspace()
    const result = await ws.call('write_file', { path: 'a/b/c.txt', content: 'héllo\n' })
    expect(valueOf(result)).toEqual({ path: 'a/b/c.txt', bytes: 7, created: true })
    expect(textOf(result)).toBe('Created a/b/c.txt (7 bytes)')
    expect(await readFile(path.join(ws.root, 'a/b/c.txt'), 'utf8')).toBe('héllo\n')
  })

  it('overwrites an existing file and says so', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': 'old content' })
    expect(valueOf(await ws.call('write_file', { path: 'a.txt', content: 'new' }))).toEqual({ path: 'a.txt', bytes: 3, created: false })
    expect(await readFile(path.join(ws.root, 'a.txt'), 'utf8')).toBe('new')
  })

  it('refuses to write over a folder', async () => {
    const ws = await workspace()
    await mkdir(path.join(ws.root, 'dir'))
    expect(codeOf(await ws.call('write_file', { path: 'dir', content: 'x' }))).toBe('WRONG_TYPE')
  })
})
