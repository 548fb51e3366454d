import { afterEach, describe, expect, it } from 'vitest'
import * as timeout from '@rein/plugin-timeout-policy'
import { createGate } from '@rein/testing'
import { defineTool } from '@rein/kernel'
import { DEFAULT_STACK_BYTES, MAX_STACK_BYTES, threadStackMb } from '../src/index.js'
import { SandboxPool } from '../src/pool.js'
import { harness, onPool, outcome, run } from './helpers.js'

const stops: Array<() => Promise<void>> = []
afterEach(async () => { await Promise.all(stops.splice(0).map((stop) => stop())) })

async function started(options: Parameters<typeof harness>[0]) {
  return (await startedWithForks(options)).ctx
}

async function startedWithForks(options: Parameters<typeof harness>[0]) {
  const made = await harness(options)
  stops.push(() => made.ctx.stop())
  return made
}

/**
 * The deadline of a call that must succeed after a deadline was tested: it starts a new
 * sandbox thread, which a loaded machine may take well over the tested deadline to do.
 */
const ROOMY_MS = 60_000

const recursion = `
  function deeper(n) { return deeper(n + 1) + 1 }
  try { return deeper(0) } catch (error) { return String(error) }`

describe('limits', () => {
  it('ends a busy loop at the timeout plugin\'s deadline (TOOL_TIMEOUT), and the next call works', async () => {
    const roomy = { tools: { run_code: ROOMY_MS } }
    const { ctx, plugins: [deadline] } = await startedWithForks({ plugins: [[timeout, roomy]] })
    // A warm thread first, so that the loop (not the thread's start) is what the deadline ends.
    expect(outcome(await run(ctx, 'return 0'))).toEqual(['OK', 0])
    deadline!.update({ tools: { run_code: 300 } })
    expect(outcome(await run(ctx, 'while (true) {}'))).toEqual(['TOOL_TIMEOUT', 'Error: tool call timed out after 300ms'])
    // The same run_code plugin (and pool) serves the next call, under a deadline load cannot reach.
    deadline!.update(roomy)
    expect(outcome(await run(ctx, 'return 1 + 1'))).toEqual(['OK', 2])
  })

  it('ends a busy loop the code catches around, at its own maxRunMs, and the pool serves the next run', async () => {
    const pool = new SandboxPool({ stackSizeMb: threadStackMb(DEFAULT_STACK_BYTES), memoryLimitBytes: 64 * 1024 * 1024 })
    stops.push(() => pool.dispose())
    // Two run_code tools on one pool: the tested limit, and a roomy one for the run that must succeed.
    const [strict, roomy] = [await onPool(pool, { maxRunMs: 300 }), await onPool(pool, { maxRunMs: ROOMY_MS })]
    stops.push(() => strict.stop(), () => roomy.stop())
    const [code, text] = outcome(await run(strict, 'for (;;) { try { while (true) {} } catch {} }'))
    expect(code).toBe('TOOL_TIMEOUT')
    expect(text).toBe('Error: the code ran longer than 300ms and was stopped; do less per run, or check for a loop that never ends')
    expect(outcome(await run(roomy, 'return "again"'))).toEqual(['OK', 'again'])
  })

  it('ends a run waiting on a slow sub-call at maxRunMs and aborts that sub-call', async () => {
    const gate = createGate()
    // The run must reach its sub-call before the deadline: 2 s is room for that on a loaded machine.
    const ctx = await started({ config: { maxRunMs: 2_000 }, tools: [gate.tool('slow')] })
    const aborted: string[] = []
    ctx.on('tools/result', (exec, result) => { if (result.isError) aborted.push(`${exec.id} ${result.error.info?.code}`) })
    expect(outcome(await run(ctx, 'return await tools.slow({})', { id: 'r' }))[0]).toBe('TOOL_TIMEOUT')
    expect(aborted).toEqual(['r.1 ABORTED', 'r TOOL_TIMEOUT'])
  })

  it('stops code that runs out of memory with a clear error, and the next call works', async () => {
    const ctx = await started({ config: { memoryLimitBytes: 16 * 1024 * 1024 } })
    const [code, text] = outcome(await run(ctx, 'const kept = []\nfor (;;) kept.push("x".repeat(1 << 20) + kept.length)'))
    expect(code).toBe('CODE_MEMORY_LIMIT')
    expect(text).toBe('Error: the code ran out of memory (its limit is 16 MiB); hold less data at once and return a smaller value')
    expect(outcome(await run(ctx, 'return "x".repeat(1 << 20).length'))).toEqual(['OK', 1 << 20])
  })

  it('ends a run whose sub-call reply no longer fits in its memory, and the next run on the pool works', async () => {
    const echo = defineTool<{ s: string }>({
      name: 'echo',
      description: 'Returns its arguments.',
      parameters: { type: 'object', properties: { s: { type: 'string' } } },
      execute: (args) => args,
    })
    const ctx = await started({ config: { memoryLimitBytes: 8 << 20 }, tools: [echo] })
    // The call starts, then the code fills its memory, then the reply (a 6,000-character string) arrives.
    const filled = await run(ctx, `
      const p = tools.echo({ s: 'Q'.repeat(6000) })
      let hold = []
      try { for (;;) hold.push(new ArrayBuffer(64 << 10)) } catch (e) {}
      try { for (;;) hold.push(new ArrayBuffer(64)) } catch (e) {}
      let r; try { r = await p } catch (e) { r = e }
      hold = null
      return 'got ' + JSON.stringify(r).length`)
    expect(outcome(filled)[0]).toBe('CODE_MEMORY_LIMIT')
    expect(outcome(await run(ctx, 'return [1 + 2, [3, 1, 2].sort()]'))).toEqual(['OK', [3, [1, 2, 3]]])
  })

  it('refuses one allocation larger than the limit at once', async () => {
    const ctx = await started({ config: { memoryLimitBytes: 16 * 1024 * 1024 } })
    expect(outcome(await run(ctx, 'return new Uint8Array(64 * 1024 * 1024).length'))[0]).toBe('CODE_MEMORY_LIMIT')
  })

  it('turns runaway recursion into a catchable error, at the default and at the largest stack', async () => {
    for (const maxStackBytes of [undefined, MAX_STACK_BYTES]) {
      const ctx = await started({ config: { maxStackBytes } })
      expect(outcome(await run(ctx, recursion))).toEqual(['OK', 'InternalError: stack overflow'])
      for (const deep of ['JSON.parse("[".repeat(300000))', 'eval("[".repeat(300000))']) {
        const nested = await run(ctx, `try { ${deep} } catch (error) { return String(error) }`)
        expect(outcome(nested), deep).toEqual(['OK', 'SyntaxError: stack overflow'])
      }
      const [code, text] = outcome(await run(ctx, 'let o = null\nfor (let i = 0; i < 100000; i++) o = { o }\nreturn o'))
      expect([code, text]).toEqual(['INVALID_TOOL_OUTPUT', 'Error: the code\'s return value cannot be returned as JSON: InternalError: stack overflow'])
    }
  })

  it('says so when the code awaits something nothing can settle', async () => {
    const ctx = await started({})
    expect(outcome(await run(ctx, 'await new Promise(() => {})'))).toEqual(['CODE_FAILED',
      'Error: the code awaits a promise that nothing can settle: the sandbox has no timers or events, only tools.<name>() calls'])
  })
})
