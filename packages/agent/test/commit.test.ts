import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { CommitCursor } from '../src/commit.js'
import { spawnChild } from './helpers.js'

const throwingChild = fileURLToPath(new URL('./fixtures/commit-throws-child.mjs', import.meta.url))

describe('CommitCursor', () => {
  it('commits in index order whatever order items arrive in, without waiting for earlier acknowledgements', async () => {
    const issued: string[] = []
    const acks: (() => void)[] = []
    const cursor = new CommitCursor<string>(4, (index, item) => {
      issued.push(`${index}:${item}`)
      return new Promise<void>((resolve) => acks.push(resolve))
    }, (error) => { throw error })
    cursor.offer(3, 'd')
    cursor.offer(1, 'b')
    expect(issued).toEqual([])
    cursor.offer(0, 'a')
    // 0 and 1 are issued together: one store write can carry both.
    expect(issued).toEqual(['0:a', '1:b'])
    cursor.offer(2, 'c')
    expect(issued).toEqual(['0:a', '1:b', '2:c', '3:d'])
    expect(cursor.committed).toBe(0)
    acks[1]()
    await Promise.resolve()
    // An acknowledgement after a gap is not a commit: committed is a prefix.
    expect(cursor.committed).toBe(0)
    let drained = false
    const draining = cursor.drained().then(() => { drained = true })
    acks[0]()
    acks[2]()
    await new Promise((resolve) => setImmediate(resolve))
    expect(cursor.committed).toBe(3)
    expect(drained).toBe(false)
    acks[3]()
    await draining
    expect(cursor.committed).toBe(4)
  })

  it('reports a failure once, counts only the acknowledged prefix and issues nothing more', async () => {
    const errors: unknown[] = []
    const issued: number[] = []
    const cursor = new CommitCursor<number>(4, async (index) => {
      issued.push(index)
      if (index >= 1) throw new Error('disk full')
    }, (e) => errors.push(e))
    for (const i of [0, 1, 2]) cursor.offer(i, i)
    await cursor.drained()
    cursor.offer(3, 3)
    await cursor.drained()
    expect(cursor.committed).toBe(1)
    expect(errors).toHaveLength(1)
    expect(issued).toEqual([0, 1, 2])
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
    const [code] = await once(proc, 'close')
    expect(err).toBe('')
    expect(code).toBe(0)
    expect(JSON.parse(out)).toEqual({ committed: 0, errors: ['disk gone'] })
  }, 15_000)
})
