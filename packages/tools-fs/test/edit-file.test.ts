import { execFileSync } from 'node:child_process'
import { appendFile, chmod, readFile, stat, symlink } from 'node:fs/promises'
import { createServer } from 'node:net'
import path from 'node:path'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { Root } from '@rein/workspace'
import { describe, expect, it, onTestFinished } from 'vitest'
import { editFileTool } from '../src/tools/edit-file.js'
import { canLimitFileSize, codeOf, namesIn, textOf, valueOf, withFileSizeLimit, workspace } from './helpers.js'

describe('edit_file', () => {
  it('replaces a unique exact string', async () => {
    const ws = await workspace()
    await ws.put({ 'a.ts': 'const a = 1\nconst b = 2\n' })
    const result = await ws.call('edit_file', { path: 'a.ts', old_string: 'b = 2', new_string: 'b = 3' })
    expect(valueOf(result)).toEqual({ path: 'a.ts', replacements: 1, bytes: 24 })
    expect(textOf(result)).toBe('Edited a.ts: 1 replacement (now 24 bytes)')
    expect(await readFile(path.join(ws.root, 'a.ts'), 'utf8')).toBe('const a = 1\nconst b = 3\n')
  })

  it('treats the strings literally ($ patterns and regex characters included)', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': 'price: (x+1)*2\n' })
    await ws.call('edit_file', { path: 'a.txt', old_string: '(x+1)*2', new_string: '$& $1 $$' })
    expect(await readFile(path.join(ws.root, 'a.txt'), 'utf8')).toBe('price: $& $1 $$\n')
  })

  it('refuses a string that does not occur, and leaves the file alone', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': 'abc' })
    const result = await ws.call('edit_file', { path: 'a.txt', old_string: 'xyz', new_string: 'q' })
    expect(codeOf(result)).toBe('EDIT_NO_MATCH')
    expect(await readFile(path.join(ws.root, 'a.txt'), 'utf8')).toBe('abc')
  })

  it('refuses a string that occurs more than once unless replace_all is set', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': 'x-x-x' })
    const result = await ws.call('edit_file', { path: 'a.txt', old_string: 'x', new_string: 'yy' })
    expect(codeOf(result)).toBe('EDIT_NOT_UNIQUE')
    expect(textOf(result)).toContain('occurs 3 times')
    expect(await readFile(path.join(ws.root, 'a.txt'), 'utf8')).toBe('x-x-x')
    expect(valueOf(await ws.call('edit_file', { path: 'a.txt', old_string: 'x', new_string: 'yy', replace_all: true })))
      .toMatchObject({ replacements: 3 })
    expect(await readFile(path.join(ws.root, 'a.txt'), 'utf8')).toBe('yy-yy-yy')
  })

  it('shrinks a file correctly (no stale bytes after the new end)', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': 'a long line of text\n' })
    await ws.call('edit_file', { path: 'a.txt', old_string: 'a long line of text', new_string: 'short' })
    expect(await readFile(path.join(ws.root, 'a.txt'), 'utf8')).toBe('short\n')
  })

  it('refuses an edit that changes nothing, an empty old_string and a missing file', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': 'abc' })
    expect(codeOf(await ws.call('edit_file', { path: 'a.txt', old_string: 'a', new_string: 'a' }))).toBe('EDIT_NO_CHANGE')
    expect(codeOf(await ws.call('edit_file', { path: 'a.txt', old_string: '', new_string: 'a' }))).toBe('INVALID_ARGS')
    expect(codeOf(await ws.call('edit_file', { path: 'b.txt', old_string: 'a', new_string: 'b' }))).toBe('NOT_FOUND')
  })

  it('refuses a file that is not valid UTF-8 with NOT_TEXT and leaves every byte as it was', async () => {
    const ws = await workspace()
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6f, 0x6c, 0x64, 0x0a]) // "café\nold\n" in Latin-1
    const surrogate = Buffer.from([0x6f, 0x6c, 0x64, 0xed, 0xa0, 0x80, 0x0a]) // an encoded UTF-16 surrogate: not UTF-8
    await ws.put({ 'latin1.txt': latin1, 'cesu.txt': surrogate })
    const before = await stat(path.join(ws.root, 'latin1.txt'))
    for (const [file, bytes] of [['latin1.txt', latin1], ['cesu.txt', surrogate]] as const) {
      const result = await ws.call('edit_file', { path: file, old_string: 'old', new_string: 'new' })
      expect(codeOf(result), file).toBe('NOT_TEXT')
      expect(textOf(result)).toContain(`"${file}" is not valid UTF-8`)
      expect(await readFile(path.join(ws.root, file))).toEqual(bytes)
    }
    expect((await stat(path.join(ws.root, 'latin1.txt'))).ino).toBe(before.ino)
  })

  it('keeps a byte order mark, line ends and every byte it does not edit', async () => {
    const ws = await workspace()
    const text = '\uFEFFfirst  \r\nnaïve 日本 🎉\r\nlast\ttab\n'
    await ws.put({ 'a.txt': text })
    expect(valueOf(await ws.call('edit_file', { path: 'a.txt', old_string: '日本', new_string: 'X' }))).toMatchObject({ replacements: 1 })
    expect(await readFile(path.join(ws.root, 'a.txt'))).toEqual(Buffer.from(text.replace('日本', 'X'), 'utf8'))
  })

  it('replaces the file through a new one: a new inode, the old mode, no temporary file left', async () => {
    const ws = await workspace()
    await ws.put({ 'sub/run.sh': 'echo old\n' })
    const file = path.join(ws.root, 'sub/run.sh')
    await chmod(file, 0o750)
    const before = await stat(file)
    valueOf(await ws.call('edit_file', { path: 'sub/run.sh', old_string: 'old', new_string: 'new' }))
    const after = await stat(file)
    expect(await readFile(file, 'utf8')).toBe('echo new\n')
    expect(after.ino).not.toBe(before.ino)
    expect(after.mode & 0o7777).toBe(0o750)
    expect(await namesIn(path.join(ws.root, 'sub'))).toEqual(['run.sh'])
  })

  it('edits the file a link inside the root leads to, and the link stays a link', async () => {
    const ws = await workspace()
    await ws.put({ 'real.txt': 'alpha\n' })
    await symlink('real.txt', path.join(ws.root, 'alias.txt'))
    expect(valueOf(await ws.call('edit_file', { path: 'alias.txt', old_string: 'alpha', new_string: 'beta' }))).toMatchObject({ path: 'alias.txt' })
    expect(await readFile(path.join(ws.root, 'real.txt'), 'utf8')).toBe('beta\n')
    expect((await stat(path.join(ws.root, 'alias.txt'))).ino).toBe((await stat(path.join(ws.root, 'real.txt'))).ino)
    expect(await namesIn(ws.root)).toEqual(['alias.txt', 'real.txt'])
  })

  it('refuses a FIFO and a socket at once with WRONG_TYPE, naming the path as given', async () => {
    const ws = await workspace()
    execFileSync('mkfifo', [path.join(ws.root, 'pipe')])
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(path.join(ws.root, 'sock'), resolve))
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const pipe = await ws.call('edit_file', { path: 'pipe', old_string: 'a', new_string: 'b' })
    expect(codeOf(pipe)).toBe('WRONG_TYPE')
    expect(textOf(pipe)).toBe('Error: "pipe" is a FIFO, not a regular file')
    const sock = await ws.call('edit_file', { path: 'sock', old_string: 'a', new_string: 'b' })
    expect(codeOf(sock)).toBe('WRONG_TYPE')
    expect(textOf(sock)).toBe('Error: "sock" is a FIFO, socket or device, not a regular file')
    expect(await namesIn(ws.root)).toEqual(['pipe', 'sock'])
  })

  it.runIf(canLimitFileSize)('leaves the file whole when the new content cannot all be written (EFBIG midway)', async () => {
    const ws = await workspace()
    const old = 'keep me\n'.repeat(100)
    await ws.put({ 'a.txt': old })
    const before = await stat(path.join(ws.root, 'a.txt'))
    const result = await withFileSizeLimit(64 * 1024, () =>
      ws.call('edit_file', { path: 'a.txt', old_string: 'keep me', new_string: 'x'.repeat(4096), replace_all: true }))
    expect(codeOf(result)).toBe('EFBIG')
    expect(textOf(result)).toContain('"a.txt"')
    expect(textOf(result)).not.toContain('/proc/')
    expect(await readFile(path.join(ws.root, 'a.txt'), 'utf8')).toBe(old)
    expect((await stat(path.join(ws.root, 'a.txt'))).ino).toBe(before.ino)
    expect(await namesIn(ws.root)).toEqual(['a.txt'])
  })

  it('refuses a file over maxEditBytes with TOO_LARGE, naming the limit, and leaves it alone', async () => {
    const ws = await workspace({ maxEditBytes: 10 })
    await ws.put({ 'small.txt': 'abc', 'big.txt': 'abcdefghijk' })
    const result = await ws.call('edit_file', { path: 'big.txt', old_string: 'a', new_string: 'b' })
    expect(codeOf(result)).toBe('TOO_LARGE')
    expect(textOf(result)).toContain('"big.txt" is 11 bytes; edit_file edits files up to 10 bytes (config maxEditBytes)')
    expect(await readFile(path.join(ws.root, 'big.txt'), 'utf8')).toBe('abcdefghijk')
    expect(valueOf(await ws.call('edit_file', { path: 'small.txt', old_string: 'a', new_string: 'b' }))).toMatchObject({ replacements: 1 })
  })
})

/** A kernel whose only tool is an `edit_file` that runs `afterRead` between reading the file and replacing it. */
async function editWithSeam(root: string, afterRead: () => Promise<void>) {
  const ctx = new Context()
  ctx.plugin(kernel)
  const tool = editFileTool(Root.open(root, 'test'), { maxEditBytes: 1000 }, { afterRead })
  ctx.plugin({ name: 'seamed-edit', inject: ['tools'], apply: (c: Context) => { c.tools.register(tool) } })
  await ctx.start()
  onTestFinished(() => ctx.stop())
  return (args: Record<string, unknown>) => ctx.tools.execute({ id: 'seamed', name: 'edit_file', arguments: args })
}

describe('edit_file with another writer', () => {
  it('refuses with EDIT_CHANGED when the file was appended to after it was read, and keeps the append', async () => {
    const ws = await workspace()
    await ws.put({ 'log.txt': 'one\n' })
    const file = path.join(ws.root, 'log.txt')
    let appends = 0
    const edit = await editWithSeam(ws.root, async () => {
      if (appends++ === 0) await appendFile(file, 'two\n')
    })
    const result = await edit({ path: 'log.txt', old_string: 'one', new_string: 'ONE' })
    expect(codeOf(result)).toBe('EDIT_CHANGED')
    expect(textOf(result)).toContain('"log.txt" changed while edit_file was editing it')
    expect(await readFile(file, 'utf8')).toBe('one\ntwo\n')
    // Done again with nothing in between, the edit goes through and keeps the append.
    expect(valueOf(await edit({ path: 'log.txt', old_string: 'one', new_string: 'ONE' }))).toMatchObject({ replacements: 1 })
    expect(await readFile(file, 'utf8')).toBe('ONE\ntwo\n')
  })
})
