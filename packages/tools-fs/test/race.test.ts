// Confinement under a live race: a separate process swaps `sub` for a link to a folder
// outside the root and back, in a tight loop, while the tools use `sub`. Nothing outside may
// be read, listed, created or changed. `REIN_RACE_READS` sets the number of reads (default
// 1000; e.g. `REIN_RACE_READS=3500 npx vitest run --project tools-fs test/race.test.ts`).
import { fork } from 'node:child_process'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, onTestFinished } from 'vitest'
import type { ReadFileValue } from '../src/index.js'
import { codeOf, valueOf, workspace, type Workspace } from './helpers.js'

const READS = Number(process.env.REIN_RACE_READS ?? 1000)
/** Calls of each other tool under the race. */
const OTHERS = Number(process.env.REIN_RACE_OTHERS ?? 50)
const RACER = fileURLToPath(new URL('./racer.mjs', import.meta.url))
const SECRET = 'top secret token\n'

/** Starts the racer and resolves once its loop runs; `stop` resolves with its swap count after it exited. */
async function startRacer(ws: Workspace) {
  const child = fork(RACER, [ws.root, ws.outside], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
  })
  let swaps = 0
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject)
    child.on('message', (message) => {
      if (message === 'started') resolve()
      else swaps = (message as { swaps: number }).swaps
    })
  })
  return {
    async stop(): Promise<number> {
      child.send('stop')
      expect(await exited).toBe(0)
      return swaps
    },
  }
}

/** Runs `count` calls made by `make`, `width` at a time. */
async function many<T>(count: number, width: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = []
  let next = 0
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) out.push(await make(next++))
  }))
  return out
}

/** How many results had each outcome: 'ok', 'leak', or the error code. */
function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1
  return counts
}

async function raced() {
  const ws = await workspace()
  await ws.put({ 'sub/secret.txt': 'inside token\n' })
  await writeFile(path.join(ws.outside, 'secret.txt'), SECRET)
  await writeFile(path.join(ws.outside, 'only-outside.txt'), SECRET)
  return ws
}

describe('confinement while a folder is swapped for a link in a tight loop', () => {
  it(`never reads the outside file (${READS} reads)`, async () => {
    const ws = await raced()
    const racer = await startRacer(ws)
    const outcomes = await many(READS, 8, async () => {
      const result = await ws.call('read_file', { path: 'sub/secret.txt' })
      if (result.isError) return codeOf(result) ?? 'error'
      return valueOf<ReadFileValue>(result).content.includes('secret') ? 'leak' : 'ok'
    })
    const swaps = await racer.stop()
    const counts = tally(outcomes)
    console.log(`race: ${READS} reads, ${swaps} swaps, outcomes ${JSON.stringify(counts)}`)
    expect(swaps).toBeGreaterThan(0)
    expect(counts.leak ?? 0).toBe(0)
  })

  it('never lists, finds or greps outside, and never creates or changes anything there', async () => {
    const ws = await raced()
    const racer = await startRacer(ws)
    const outcomes = await many(OTHERS, 4, async (i) => {
      const calls = await Promise.all([
        ws.call('list_dir', { path: 'sub' }),
        ws.call('glob', { pattern: '**/*' }),
        ws.call('glob', { pattern: '*', path: 'sub' }),
        ws.call('grep', { pattern: 'token', path: 'sub' }),
        ws.call('grep', { pattern: 'token' }),
        ws.call('grep', { pattern: 'token', path: 'sub/secret.txt' }),
      ])
      const writes = [
        await ws.call('write_file', { path: `sub/new-${i}.txt`, content: 'planted' }),
        await ws.call('write_file', { path: `sub/deep-${i}/new.txt`, content: 'planted' }),
        await ws.call('write_file', { path: 'sub/secret.txt', content: 'inside token\n' }),
        await ws.call('edit_file', { path: 'sub/secret.txt', old_string: 'token', new_string: 'token.' }),
      ]
      const seen = calls.map((result) => (result.isError ? '' : JSON.stringify(result.value)))
      if (seen.some((text) => text.includes('only-outside') || text.includes('top secret'))) return 'leak'
      return [...calls, ...writes].map((result) => codeOf(result) ?? 'ok').join(',')
    })
    const swaps = await racer.stop()
    expect(swaps).toBeGreaterThan(0)
    expect(outcomes).not.toContain('leak')
    expect((await readdir(ws.outside)).sort()).toEqual(['only-outside.txt', 'secret.txt'])
    expect(await readFile(path.join(ws.outside, 'secret.txt'), 'utf8')).toBe(SECRET)
    expect(await readFile(path.join(ws.outside, 'only-outside.txt'), 'utf8')).toBe(SECRET)
  })
})
