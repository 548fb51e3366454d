import { mkdtemp, open, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it, onTestFinished } from 'vitest'
import { readWindow, utf8End } from '../src/lines.js'

/**
 * Reads `file` (its lines `lines`, as bytes) window after window from line 1, checking each:
 * within the byte cap on the text shown, at least one line and fewer than `limit`, and the text
 * the lines shown (whole, or a cut first line that is a prefix of it); every line is reached.
 */
async function expectWindows(file: string, lines: Buffer[], limit: number, maxBytes: number) {
  const handle = await open(file, 'r')
  try {
    let offset = 1
    while (offset <= lines.length) {
      const w = await readWindow(handle, offset, limit, maxBytes, new AbortController().signal)
      expect(w.totalLines).toBe(lines.length)
      expect(Buffer.byteLength(w.text)).toBeLessThanOrEqual(maxBytes)
      expect(w.endLine).toBeGreaterThanOrEqual(offset)
      expect(w.endLine - offset).toBeLessThan(limit)
      const wanted = Buffer.concat(lines.slice(offset - 1, w.endLine)).toString('utf8')
      if (w.lineCut) expect(wanted.startsWith(w.text) && w.text.length < wanted.length).toBe(true)
      else expect(w.text).toBe(wanted)
      offset = w.endLine + 1
    }
  } finally {
    await handle.close()
  }
}

describe('readWindow', () => {
  it('returns whole lines within the byte cap, or a cut first line that is a prefix of it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rein-lines-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    const file = path.join(dir, 'f.txt')
    const char = fc.constantFrom('a', 'é', '€', '😀')
    const line = fc.array(char, { maxLength: 10 }).map((chars) => Buffer.from(`${chars.join('')}\n`))
    await fc.assert(fc.asyncProperty(fc.array(line, { maxLength: 20 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 5 }),
      async (lines, maxBytes, limit) => {
        await writeFile(file, Buffer.concat(lines))
        await expectWindows(file, lines, limit, maxBytes)
      }), { numRuns: 150 })
  })

  it('keeps the cap on the text shown when bytes that are not UTF-8 become U+FFFD (3 bytes each)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rein-lines-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    const file = path.join(dir, 'f.txt')
    const piece = fc.constantFrom(Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from('a'), Buffer.from('é'))
    const line = fc.array(piece, { maxLength: 10 }).map((pieces) => Buffer.concat([...pieces, Buffer.from('\n')]))
    await fc.assert(fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 20 }), fc.integer({ min: 3, max: 30 }), fc.integer({ min: 1, max: 5 }),
      async (lines, maxBytes, limit) => {
        await writeFile(file, Buffer.concat(lines))
        await expectWindows(file, lines, limit, maxBytes)
      }), { numRuns: 150 })
  })

  it('stops when the signal is aborted', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rein-lines-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    await writeFile(path.join(dir, 'f.txt'), 'a\n')
    const handle = await open(path.join(dir, 'f.txt'), 'r')
    onTestFinished(() => handle.close())
    await expect(readWindow(handle, 1, 10, 100, AbortSignal.abort())).rejects.toThrow(/abort/i)
  })
})

describe('utf8End', () => {
  it('never ends inside a character', () => {
    const bytes = Buffer.from('a€😀') // 1 + 3 + 4 bytes
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => utf8End(bytes.subarray(0, n)))).toEqual([1, 1, 1, 4, 4, 4, 4, 8])
  })
})
