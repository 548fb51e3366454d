import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { codeOf, textOf, valueOf, workspace } from './helpers.js'

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
})
