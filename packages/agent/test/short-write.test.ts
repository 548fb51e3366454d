import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { jsonlSession, type NewSessionEntry } from '../src/index.js'
import { spawnChild, tempDir } from './helpers.js'
import { line } from './session-logs.js'

const child = fileURLToPath(new URL('./fixtures/short-write-child.mjs', import.meta.url))
const built = fileURLToPath(new URL('../dist/src/index.bundle.js', import.meta.url))

/** What the child said of entry `i`: its `seq` once durable, or the error that rejected it. */
type Outcome = { i: number, seq: number } | { i: number, error: string }

/**
 * Runs the child under a file size limit of `kib` KiB (so a write that crosses it stores only
 * the bytes below it, and the next one fails EFBIG), appending `batches` of user messages of
 * the given lengths to `path`. Resolves what it said of each entry, in entry order.
 */
async function appendUnderLimit(path: string, kib: number, batches: number[][]): Promise<Outcome[]> {
  const proc = spawnChild('bash', ['-c', 'ulimit -f "$1" && shift && exec "$@"', 'bash', String(kib), process.execPath, child, path, JSON.stringify(batches)])
  let out = ''
  let err = ''
  proc.stdout.on('data', (chunk) => { out += chunk })
  proc.stderr.on('data', (chunk) => { err += chunk })
  const [code] = await once(proc, 'close')
  expect(code, `the child failed: ${err}`).toBe(0)
  return out.trim().split('\n').map((l) => JSON.parse(l) as Outcome).sort((a, b) => a.i - b.i)
}

const message = (length: number): NewSessionEntry => ({ type: 'message', message: { role: 'user', content: 'x'.repeat(length) } })

/** The bytes of the first `count` lines as the store writes them. */
const bytesOf = (lengths: number[], count: number) =>
  lengths.slice(0, count).reduce((sum, length, i) => sum + Buffer.byteLength(line(message(length), i + 1)), 0)

describe('jsonlSession when a write stops short (a file size limit, a full disk)', () => {
  // The limit in KiB, the batches (message lengths), how many entries are durable, and the line the crossing write ends with.
  it.each([
    // Each entry alone: the third write crosses the limit.
    ['one entry per write', 2, [[700], [700], [700], [700]], 2, 3],
    // The second batch's first line fits below the limit, its second crosses it: neither is acknowledged.
    ['a batch whose first line fits', 4, [[900, 900, 900], [900, 900], [900]], 3, 5],
  ])('%s: acknowledges only entries wholly on disk, and a reopen sees exactly those', async (_name, kib, batches, durable, crossing) => {
    expect(existsSync(built), 'build @rein/agent first: npx -y pnpm@10 build').toBe(true)
    const lengths = batches.flat()
    // The premise: the crossing write stores some of its bytes (its last line is cut inside), then the next write fails.
    const limit = kib * 1024
    expect(bytesOf(lengths, crossing - 1)).toBeLessThan(limit)
    expect(bytesOf(lengths, crossing)).toBeGreaterThan(limit)
    const path = join(await tempDir('rein-short-'), 'session.jsonl')

    const outcomes = await appendUnderLimit(path, kib, batches)

    const acknowledged = outcomes.flatMap((o) => 'seq' in o ? [o.seq] : [])
    expect(acknowledged).toEqual(Array.from({ length: durable }, (_, i) => i + 1))
    for (const o of outcomes.slice(durable)) {
      expect(o).toMatchObject({ error: expect.stringContaining(`session file ${path} can no longer be written (EFBIG`) })
      expect(o).toMatchObject({ error: expect.stringContaining('the entries of that write were cut off again') })
    }
    expect((await readFile(path)).length).toBe(bytesOf(lengths, durable))
    const reopened = jsonlSession(path)
    expect(await reopened.load()).toEqual(lengths.slice(0, durable).map((length, i) => ({ ...message(length), seq: i + 1 })))
    expect((await reopened.append(message(1))).seq).toBe(durable + 1)
    await reopened.close?.()
  })
})
