import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { CommitCursor } from '../src/commit.js'
import { spawnChild } from './helpers.js'

const throwingChild = fileURLToPath(new URL('./fixtures/commit-throws-child.mjs', import.meta.url))

describe('CommitCursor', () => {
  it('commits in index order whatever order items arrive in, one at a time', async () => {
    const committed: string[] = []
    let active = 0
    const cursor = new CommitCursor<string>(4, async (index, item) => {
      if (active++) throw new Error('two commits at once')
      await Promise.resolve()
      committed.push(`${index}:${item}`)
      active--
    }, (error) => { throw error })
    cursor.offer(3, 'd')
    cursor.offer(1, 'b')
    await cursor.drained()
    expect(committed).toEqual([])
    cursor.offer(0, 'a')
    cursor.offer(2, 'c')
    await cursor.drained()
    expect(committed).toEqual(['0:a', '1:b', '2:c', '3:d'])
    expect(cursor.committed).toBe(4)
  })

  it('stops at the first failed commit and reports it', async () => {
    const errors: unknown[] = []
    const cursor = new CommitCursor<number>(3, async (index) => { if (index === 1) throw new Error('disk full') }, (e) => errors.push(e))
    for (const i of [0, 1, 2]) cursor.offer(i, i)
    await cursor.drained()
    expect(cursor.committed).toBe(1)
    expect(errors).toHaveLength(1)
  })

  // In a child: a cursor that never drains spins in microtasks, which would starve this
  // process's timers too; the child is killed if the test times out.
  it('drains after a commit that throws synchronously, and reports it once', async () => {
    const proc = spawnChild(process.execPath, [throwingChild])
    let out = ''
    let err = ''
    proc.stdout.on('data', (chunk) => { out += chunk })
    proc.stderr.on('data', (chunk) => { err += chunk })
    const [code] = await once(proc, 'exit')
    expect(err).toBe('')
    expect(code).toBe(0)
    expect(JSON.parse(out)).toEqual({ committed: 0, errors: ['disk gone'] })
  }, 15_000)
})
