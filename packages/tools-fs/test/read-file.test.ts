import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ReadFileValue } from '../src/index.js'
import { codeOf, textOf, valueOf, workspace } from './helpers.js'

const read = async (ws: Awaited<ReturnType<typeof workspace>>, args: Record<string, unknown>) =>
  valueOf<ReadFileValue>(await ws.call('read_file', args))

describe('read_file', () => {
  it('reads a whole small file and says its size', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': 'one\ntwo\nthree' })
    const value = await read(ws, { path: 'a.txt' })
    expect(value).toEqual({ path: 'a.txt', content: 'one\ntwo\nthree', startLine: 1, endLine: 3, totalLines: 3, totalBytes: 13, truncated: false })
    expect(textOf(await ws.call('read_file', { path: 'a.txt' }))).toMatch(/^a\.txt: lines 1-3 of 3 \(13 bytes\)\none/)
  })

  it('reads a window by offset and limit, and says where to continue', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': 'l1\nl2\nl3\nl4\nl5\n' })
    const value = await read(ws, { path: 'a.txt', offset: 2, limit: 2 })
    expect(value).toMatchObject({ content: 'l2\nl3\n', startLine: 2, endLine: 3, totalLines: 5, truncated: true, nextOffset: 4 })
    expect(textOf(await ws.call('read_file', { path: 'a.txt', offset: 2, limit: 2 }))).toContain('call read_file with offset 4')
  })

  it('caps a window in bytes at a line end', async () => {
    const ws = await workspace({ maxReadBytes: 10 })
    await ws.put({ 'a.txt': 'aaaa\nbbbb\ncccc\n' })
    expect(await read(ws, { path: 'a.txt' })).toMatchObject({ content: 'aaaa\nbbbb\n', endLine: 2, nextOffset: 3, truncated: true })
  })

  it('cuts a line longer than the cap at a character boundary, and moves on past it', async () => {
    const ws = await workspace({ maxReadBytes: 5 })
    await ws.put({ 'a.txt': 'ab😀cd\nnext\n' }) // the emoji is bytes 3-6: a cut after byte 5 would split it
    const value = await read(ws, { path: 'a.txt' })
    expect(value).toMatchObject({ content: 'ab', endLine: 1, lineCut: true, truncated: true, nextOffset: 2 })
  })

  it('answers an offset past the end with no lines and the real total', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': 'x\ny\n' })
    const result = await ws.call('read_file', { path: 'a.txt', offset: 9 })
    expect(valueOf<ReadFileValue>(result)).toMatchObject({ content: '', startLine: 9, endLine: 8, totalLines: 2, truncated: false })
    expect(textOf(result)).toContain('past the end')
  })

  it('reports a missing file, a folder and a binary file with their own codes', async () => {
    const ws = await workspace()
    await ws.put({ 'dir/x.txt': 'x', 'bin.dat': Buffer.from([1, 2, 0, 3]) })
    expect(codeOf(await ws.call('read_file', { path: 'nope.txt' }))).toBe('NOT_FOUND')
    expect(codeOf(await ws.call('read_file', { path: 'dir' }))).toBe('WRONG_TYPE')
    expect(codeOf(await ws.call('read_file', { path: 'bin.dat' }))).toBe('NOT_TEXT')
  })

  it('shows a file that is not valid UTF-8 with U+FFFD for the bad bytes, and says so', async () => {
    const ws = await workspace()
    await ws.put({ 'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6f, 0x6b, 0x0a]) })
    const result = await ws.call('read_file', { path: 'latin1.txt' })
    expect(valueOf(result)).toMatchObject({ content: 'caf\uFFFD\nok\n', notUtf8: true, totalBytes: 8 })
    expect(textOf(result)).toContain('[these lines are not valid UTF-8')
    const clean = await ws.call('read_file', { path: 'latin1.txt', offset: 2 })
    expect(valueOf<{ notUtf8?: boolean }>(clean).notUtf8).toBeUndefined()
  })

  it('rejects a limit above the configured largest one before running', async () => {
    const ws = await workspace({ maxReadLines: 5 })
    await ws.put({ 'a.txt': 'a' })
    expect(codeOf(await ws.call('read_file', { path: 'a.txt', limit: 6 }))).toBe('INVALID_ARGS')
  })

  it('reproduces any file byte for byte when read window after window', async () => {
    const ws = await workspace()
    const line = fc.array(fc.constantFrom('a', 'z', 'é', '😀', ' ', '\r'), { maxLength: 12 }).map((chars) => chars.join(''))
    await fc.assert(fc.asyncProperty(fc.array(line, { maxLength: 30 }), fc.boolean(), fc.integer({ min: 1, max: 7 }),
      async (lines, trailing, limit) => {
        const text = lines.join('\n') + (trailing && lines.length ? '\n' : '')
        await ws.put({ 'p.txt': text })
        let offset: number | undefined = 1
        let seen = ''
        while (offset !== undefined) {
          const value = await read(ws, { path: 'p.txt', offset, limit })
          expect(value.totalBytes).toBe(Buffer.byteLength(text))
          seen += value.content
          offset = value.nextOffset
        }
        expect(seen).toBe(text)
      }), { numRuns: 60 })
  })
})
