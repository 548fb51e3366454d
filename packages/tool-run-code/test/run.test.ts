import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_STACK_BYTES, threadStackMb } from '../src/index.js'
import { SandboxPool } from '../src/pool.js'
import { runOnThread } from '../src/run.js'
import type { SandboxThread } from '../src/thread.js'

const pools: SandboxPool[] = []
afterEach(async () => { await Promise.all(pools.splice(0).map((pool) => pool.dispose())) })

/** One run of `return await tools.echo({ n })` on `thread`; a WeakRef to its sub-call handler goes to `refs`. */
async function echoOnce(thread: SandboxThread, n: number, refs: WeakRef<object>[]) {
  const call = async (_name: string, args: string) => JSON.stringify({ ok: true, value: JSON.parse(args) })
  refs.push(new WeakRef(call))
  const ended = await runOnThread(thread, {
    code: `return await tools.echo({ n: ${n} })`,
    tools: ['echo'],
    limits: { memoryLimitBytes: 16 * 1024 * 1024, maxStackBytes: DEFAULT_STACK_BYTES, deadline: Date.now() + 60_000 },
    fixed: { clock: 0, seed: [1, 2, 3, 4] },
  }, call, new AbortController().signal)
  return ended.outcome
}

describe('a run on a thread', () => {
  it('keeps nothing of itself alive once it ended, while its thread stays in the pool', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const pool = new SandboxPool({ stackSizeMb: threadStackMb(DEFAULT_STACK_BYTES), memoryLimitBytes: 16 * 1024 * 1024 })
    pools.push(pool)
    const thread = await pool.acquire(new AbortController().signal)
    const refs: WeakRef<object>[] = []
    for (const n of [1, 2, 3]) expect(await echoOnce(thread, n, refs)).toEqual({ kind: 'value', json: `{"n":${n}}` })
    await new Promise((resolve) => setImmediate(resolve))
    gc()
    expect(thread.alive).toBe(true)
    expect(refs.map((ref) => ref.deref() !== undefined)).toEqual([false, false, false])
  })
})
