import { afterEach, describe, expect, it } from 'vitest'
import * as timeout from '@rein/plugin-timeout-policy'
import { defineTool } from '@rein/kernel'
import { harness, outcome, run } from './helpers.js'

const stops: Array<() => Promise<void>> = []
afterEach(async () => { await Promise.all(stops.splice(0).map((stop) => stop())) })

/** `wait({})`: runs until its signal aborts; `signals` holds each call's signal, `started` resolves at the first. */
function waitTool() {
  const signals: AbortSignal[] = []
  let onStart!: () => void
  const started = new Promise<void>((resolve) => { onStart = resolve })
  const tool = defineTool({
    name: 'wait',
    description: 'Wait until aborted.',
    parameters: { type: 'object' },
    execute: (_args, exec) => new Promise((_, reject) => {
      signals.push(exec.signal)
      exec.signal.addEventListener('abort', () => reject(exec.signal.reason), { once: true })
      onStart()
    }),
  })
  return { tool, signals, started }
}

async function started(options: Parameters<typeof harness>[0]) {
  const made = await harness(options)
  stops.push(() => made.ctx.stop())
  return made.ctx
}

describe('an abort', () => {
  it('aborts the signal of a sub-call in flight and ends the run ABORTED', async () => {
    const wait = waitTool()
    const ctx = await started({ plugins: [[timeout, {}]], tools: [wait.tool] })
    const results: string[] = []
    ctx.on('tools/result', (exec, result) => { results.push(`${exec.id} ${result.isError ? result.error.info?.code : 'OK'}`) })
    const controller = new AbortController()
    const result = run(ctx, 'return await tools.wait({})', { id: 'r', signal: controller.signal })
    await wait.started
    controller.abort()
    expect(outcome(await result)).toEqual(['ABORTED', 'Error: tool call aborted'])
    expect(wait.signals.map((signal) => signal.aborted)).toEqual([true])
    expect(results).toEqual(['r.1 ABORTED', 'r ABORTED'])
  })

  it('stops a busy loop (the event loop of its thread is not turning), and the next run works', async () => {
    let onPing!: () => void
    const pinged = new Promise<void>((resolve) => { onPing = resolve })
    const ping = defineTool({ name: 'ping', description: 'Ping.', parameters: { type: 'object' }, execute: () => { onPing(); return 'pong' } })
    const ctx = await started({ plugins: [[timeout, {}]], tools: [ping] })
    const controller = new AbortController()
    const result = run(ctx, 'await tools.ping({})\nwhile (true) {}', { signal: controller.signal })
    await pinged
    await new Promise((resolve) => setTimeout(resolve, 50))
    controller.abort()
    expect(outcome(await result)).toEqual(['ABORTED', 'Error: tool call aborted'])
    expect(outcome(await run(ctx, 'return "next"'))).toEqual(['OK', 'next'])
  })

  it('aborts sub-calls the code left running when it returned, and waits for them', async () => {
    const wait = waitTool()
    const ctx = await started({ tools: [wait.tool] })
    const results: string[] = []
    ctx.on('tools/result', (exec, result) => { results.push(`${exec.id} ${result.isError ? result.error.info?.code : 'OK'}`) })
    expect(outcome(await run(ctx, 'tools.wait({})\nreturn "done"', { id: 'r' }))).toEqual(['OK', 'done'])
    expect(wait.signals.map((signal) => signal.aborted)).toEqual([true])
    expect(results).toEqual(['r.1 ABORTED', 'r OK'])
  })
})
