import { afterEach, describe, expect, it } from 'vitest'
import { ABORTED, TOOL_FAILED } from '@rein/kernel'
import type { IsolatedTool } from '../src/index.js'
import { firstProgress, fixtureTool, harness, outcome } from './helpers.js'

const tools: IsolatedTool[] = []
const flush = () => new Promise<void>((resolve) => setImmediate(resolve))
afterEach(async () => { await Promise.all(tools.splice(0).map((tool) => tool.dispose())) })

/** A started kernel with a tool that reports its threadId, then spins forever (or returns, with `once`). */
async function spinner(pool = {}) {
  const spin = fixtureTool('spin', 'spin', { pool })
  tools.push(spin)
  const ctx = await harness()
  ctx.tools.register(spin)
  /** Starts a spinning call; `running` resolves with its threadId once the worker is in its loop. */
  const start = (id: string) => {
    const controller = new AbortController()
    const gate = firstProgress()
    const result = ctx.tools.execute({ id, name: 'spin', arguments: {} }, { signal: controller.signal, onProgress: gate.onProgress })
    return { controller, result, running: gate.reported.then((info) => Number(info?.message)) }
  }
  return { ctx, spin, start }
}

describe('IsolatePool', () => {
  it('terminates a worker that spins forever when the caller aborts: ABORTED, and the thread exits', async () => {
    const { spin, start } = await spinner()
    const call = start('c1')
    await call.running
    expect(spin.threads()).toBe(1)
    call.controller.abort()
    expect(outcome(await call.result)).toEqual([ABORTED, undefined])
    await spin.settled()
    expect(spin.threads()).toBe(0)
  })

  it('runs calls in parallel, each in a worker of its own, and an abort ends only its own worker', async () => {
    const { spin, start } = await spinner({ maxThreads: 2 })
    const [a, b] = [start('a'), start('b')]
    const [threadA, threadB] = await Promise.all([a.running, b.running])
    expect(threadA).not.toBe(threadB)
    a.controller.abort()
    expect(outcome(await a.result)).toEqual([ABORTED, undefined])
    await spin.settled()
    expect(spin.threads()).toBe(1)
    b.controller.abort()
    expect(outcome(await b.result)).toEqual([ABORTED, undefined])
    await spin.settled()
    expect(spin.threads()).toBe(0)
  })

  it('a call queued behind an aborted one still runs once a worker is free', async () => {
    const { ctx, spin, start } = await spinner({ maxThreads: 1 })
    const a = start('a')
    await a.running
    const queued = ctx.tools.execute({ id: 'b', name: 'spin', arguments: { once: true } })
    await flush() // b is now waiting for the one worker
    a.controller.abort()
    expect(outcome(await a.result)).toEqual([ABORTED, undefined])
    expect(outcome(await queued)).toEqual(['OK'])
    expect(spin.threads()).toBe(1)
  })

  it('dispose terminates a running call (TOOL_FAILED) and resolves once no thread is left', async () => {
    const { spin, start } = await spinner()
    const call = start('c1')
    await call.running
    await spin.dispose()
    expect(spin.threads()).toBe(0)
    expect(outcome(await call.result)[0]).toBe(TOOL_FAILED)
  })

  it('starts a fresh pool for a call after dispose', async () => {
    const { ctx, spin } = await spinner()
    const run = (id: string) => ctx.tools.execute({ id, name: 'spin', arguments: { once: true } })
    expect(outcome(await run('c1'))).toEqual(['OK'])
    expect(spin.threads()).toBe(1)
    await spin.dispose()
    expect(spin.threads()).toBe(0)
    expect(outcome(await run('c2'))).toEqual(['OK'])
    expect(spin.threads()).toBe(1)
  })
})
