import { execFileSync } from 'node:child_process'
import { chmod, link, mkdir, readFile, stat, symlink } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { canLimitFileSize, codeOf, namesIn, textOf, valueOf, withFileSizeLimit, workspace } from './helpers.js'

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

  it('replaces a file through a new one: a new inode, the old mode, no temporary file left', async () => {
    const ws = await workspace()
    await ws.put({ 'bin/tool': 'old old old\n' })
    const file = path.join(ws.root, 'bin/tool')
    await chmod(file, 0o755)
    const before = await stat(file)
    expect(valueOf(await ws.call('write_file', { path: 'bin/tool', content: 'new\n' }))).toEqual({ path: 'bin/tool', bytes: 4, created: false })
    const after = await stat(file)
    expect(await readFile(file, 'utf8')).toBe('new\n')
    expect(after.ino).not.toBe(before.ino)
    expect(after.mode & 0o7777).toBe(0o755)
    expect(await namesIn(path.join(ws.root, 'bin'))).toEqual(['tool'])
  })

  it('writes the file a link inside the root leads to, and the link stays a link', async () => {
    const ws = await workspace()
    await ws.put({ 'real.txt': 'old' })
    await symlink('real.txt', path.join(ws.root, 'alias.txt'))
    expect(valueOf(await ws.call('write_file', { path: 'alias.txt', content: 'new' }))).toEqual({ path: 'alias.txt', bytes: 3, created: false })
    expect(await readFile(path.join(ws.root, 'real.txt'), 'utf8')).toBe('new')
    expect((await stat(path.join(ws.root, 'alias.txt'))).ino).toBe((await stat(path.join(ws.root, 'real.txt'))).ino)
  })

  it('gives the path a new file: another hard link keeps the old content', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': 'old' })
    await link(path.join(ws.root, 'a.txt'), path.join(ws.root, 'b.txt'))
    valueOf(await ws.call('write_file', { path: 'a.txt', content: 'new' }))
    expect(await readFile(path.join(ws.root, 'a.txt'), 'utf8')).toBe('new')
    expect(await readFile(path.join(ws.root, 'b.txt'), 'utf8')).toBe('old')
  })

  it('refuses a FIFO at once with WRONG_TYPE, naming the path as given and never an internal one', async () => {
    const ws = await workspace()
    await mkdir(path.join(ws.root, 'd'))
    execFileSync('mkfifo', [path.join(ws.root, 'd/pipe')])
    // Were the FIFO opened for writing, this would wait for a reader and the test would time out.
    const result = await ws.call('write_file', { path: 'd/pipe', content: 'x' })
    expect(codeOf(result)).toBe('WRONG_TYPE')
    expect(textOf(result)).toBe('Error: "d/pipe" is a FIFO, not a regular file')
    expect((await stat(path.join(ws.root, 'd/pipe'))).isFIFO()).toBe(true)
    expect(await namesIn(path.join(ws.root, 'd'))).toEqual(['pipe'])
  })

  it.runIf(canLimitFileSize)('leaves the old content whole when the new one cannot all be written (EFBIG midway)', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': 'the old content\n' })
    const before = await stat(path.join(ws.root, 'a.txt'))
    const result = await withFileSizeLimit(64 * 1024, () => ws.call('write_file', { path: 'a.txt', content: 'y'.repeat(1 << 20) }))
    expect(codeOf(result)).toBe('EFBIG')
    expect(textOf(result)).toContain('"a.txt"')
    expect(textOf(result)).not.toContain('/proc/')
    expect(await readFile(path.join(ws.root, 'a.txt'), 'utf8')).toBe('the old content\n')
    expect((await stat(path.join(ws.root, 'a.txt'))).ino).toBe(before.ino)
    expect(await namesIn(ws.root)).toEqual(['a.txt'])
  })

  it.runIf(canLimitFileSize)('makes no file at all when a new one cannot all be written', async () => {
    const ws = await workspace()
    const result = await withFileSizeLimit(64 * 1024, () => ws.call('write_file', { path: 'big.txt', content: 'y'.repeat(1 << 20) }))
    expect(codeOf(result)).toBe('EFBIG')
    expect(await namesIn(ws.root)).toEqual([])
  })

  it('refuses a file this process may not write, though its folder would allow replacing it', () => {
    // Root may write any file: the child becomes user nobody once it has imported what it needs.
    const out = execFileSync(process.execPath, [fileURLToPath(new URL('./read-only-child.mjs', import.meta.url))], { encoding: 'utf8' })
    const { outcomes, content, names } = JSON.parse(out) as { outcomes: { name: string, code: string, text: string }[], content: string, names: string[] }
    expect(outcomes.map(({ name, code }) => [name, code])).toEqual([['write_file', 'EACCES'], ['edit_file', 'EACCES']])
    for (const { text } of outcomes) expect(text).toContain('"ro.txt"')
    expect(content).toBe('keep\n')
    expect(names).toEqual(['ro.txt'])
  })
})
