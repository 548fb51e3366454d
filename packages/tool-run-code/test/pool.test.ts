import { afterEach, describe, expect, it } from 'vitest'
import { SandboxPool } from '../src/pool.js'

const pools: SandboxPool[] = []
afterEach(async () => { await Promise.all(pools.splice(0).map((pool) => pool.dispose())) })

function pool() {
  const made = new SandboxPool({ stackSizeMb: 28, memoryLimitBytes: 16 * 1024 * 1024 })
  pools.push(made)
  return made
}

describe('the sandbox pool', () => {
  it('reuses a thread that came back clean', async () => {
    const threads = pool()
    const first = await threads.acquire(new AbortController().signal)
    threads.release(first, true)
    expect(await threads.acquire(new AbortController().signal)).toBe(first)
    expect(threads.threads).toBe(1)
  })

  it('ends a thread that did not come back clean, and starts a fresh one', async () => {
    const threads = pool()
    const first = await threads.acquire(new AbortController().signal)
    threads.release(first, false)
    await first.exited
    const second = await threads.acquire(new AbortController().signal)
    expect(second).not.toBe(first)
    expect(threads.threads).toBe(1)
  })

  it('gives up starting a thread when the signal aborts, and ends it', async () => {
    const threads = pool()
    const controller = new AbortController()
    const acquiring = threads.acquire(controller.signal)
    controller.abort(new Error('stop'))
    await expect(acquiring).rejects.toThrow('stop')
    await expect.poll(() => threads.threads, { timeout: 15_000 }).toBe(0)
  })

  it('ends every thread on dispose and refuses later runs', async () => {
    const threads = pool()
    const busy = await threads.acquire(new AbortController().signal)
    threads.release(await threads.acquire(new AbortController().signal), true)
    await threads.dispose()
    expect(busy.alive).toBe(false)
    expect(threads.threads).toBe(0)
    await expect(threads.acquire(new AbortController().signal)).rejects.toThrow('run_code was disposed with its plugin')
  })
})
