import { afterEach, describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { createGate } from '@rein/testing'
import type { ToolExec } from '@rein/kernel'
import { addTool, harness, outcome, readJsonTool, run, tempFiles } from './helpers.js'

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => { await Promise.all(cleanups.splice(0).map((cleanup) => cleanup())) })

async function started(options: Parameters<typeof harness>[0]) {
  const made = await harness(options)
  cleanups.push(() => made.ctx.stop())
  return made.ctx
}

describe('run_code', () => {
  it('reads three files in parallel and returns the sum of a field', async () => {
    const files = await tempFiles({ 'a.json': '{"n":1}', 'b.json': '{"n":2}', 'c.json': '{"n":39}' })
    cleanups.push(files.remove)
    const ctx = await started({ tools: [readJsonTool(files.dir)] })
    const result = await run(ctx, `
      const docs = await Promise.all(['a.json', 'b.json', 'c.json'].map((name) => tools.read_json({ name })))
      return docs.reduce((sum, doc) => sum + doc.n, 0)`)
    expect(outcome(result)).toEqual(['OK', 42])
    expect(result.content).toEqual([{ type: 'text', text: '42' }])
  })

  it('gives the code the canonical value of a call, not its rendered text', async () => {
    const files = await tempFiles({ 'a.json': '{"n":1}' })
    cleanups.push(files.remove)
    const ctx = await started({ tools: [readJsonTool(files.dir)] })
    const result = await run(ctx, `const doc = await tools.read_json({ name: 'a.json' }); return [typeof doc, doc]`)
    expect(outcome(result)).toEqual(['OK', ['object', { n: 1 }]])
  })

  it('runs the calls of Promise.all at the same time on the host', async () => {
    const gate = createGate()
    const ctx = await started({ tools: [gate.tool('slow')] })
    const result = run(ctx, 'return await Promise.all([tools.slow({}), tools.slow({}), tools.slow({})])', { id: 'r' })
    await gate.whenRunning(3)
    for (const id of ['r.3', 'r.1', 'r.2']) gate.release(id, id)
    expect(outcome(await result)).toEqual(['OK', ['r.1', 'r.2', 'r.3']])
    expect(gate.peak).toBe(3)
  })

  it('gives every sub-call the run_code call as its parent, with its turn, agent and session, and a key of its own', async () => {
    const ctx = await started({ tools: [addTool] })
    const session = { id: 's1' }
    const seen: Array<Pick<ToolExec, 'id' | 'name' | 'parent' | 'turn' | 'agent' | 'session'>> = []
    const keys: string[] = []
    ctx.on('tools/pre-execute', (exec, next) => {
      seen.push({ id: exec.id, name: exec.name, parent: exec.parent, turn: exec.turn, agent: exec.agent, session: exec.session })
      keys.push(exec.idempotencyKey)
      return next()
    })
    const result = await run(ctx, 'return await tools.add({ a: 1, b: 2 }) + await tools.add({ a: 3, b: 4 })',
      { id: 'call_7', turn: 3, agent: 'main', session })
    expect(outcome(result)).toEqual(['OK', 10])
    expect(seen).toEqual([
      { id: 'call_7', name: 'run_code', parent: undefined, turn: 3, agent: 'main', session },
      { id: 'call_7.1', name: 'add', parent: 'call_7', turn: 3, agent: 'main', session },
      { id: 'call_7.2', name: 'add', parent: 'call_7', turn: 3, agent: 'main', session },
    ])
    expect(new Set(keys).size).toBe(3)
    // The session keeps them with the run_code call's result (its tool/result entry's meta).
    expect(result.meta?.calls).toEqual([{ id: 'call_7.1', name: 'add' }, { id: 'call_7.2', name: 'add' }])
  })

  it('records a failed sub-call with its code', async () => {
    const ctx = await started({ tools: [addTool] })
    const result = await run(ctx, 'try { await tools.add({ a: "x" }) } catch (e) { return e.code }', { id: 'c' })
    expect(outcome(result)).toEqual(['OK', 'INVALID_ARGS'])
    expect(result.meta?.calls).toEqual([{ id: 'c.1', name: 'add', code: 'INVALID_ARGS' }])
  })

  it('runs at most maxParallelCalls sub-calls at once; the others wait their turn', async () => {
    const gate = createGate()
    const ctx = await started({ config: { maxParallelCalls: 2 }, tools: [gate.tool('slow')] })
    const result = run(ctx, 'return await Promise.all([1, 2, 3, 4].map(() => tools.slow({})))', { id: 'r' })
    await gate.whenRunning(2)
    gate.release('r.1', 1)
    await gate.whenStarted('r.3')
    gate.release('r.2', 2)
    gate.release('r.3', 3)
    await gate.whenStarted('r.4')
    gate.release('r.4', 4)
    expect(outcome(await result)).toEqual(['OK', [1, 2, 3, 4]])
    expect(gate.peak).toBe(2)
  })

  it('refuses calls beyond maxCalls with an error the code can catch', async () => {
    const ctx = await started({ config: { maxCalls: 2 }, tools: [addTool] })
    const result = await run(ctx, `
      const sums = [await tools.add({ a: 1, b: 1 }), await tools.add({ a: 2, b: 2 })]
      try { await tools.add({ a: 3, b: 3 }) } catch (error) { return [sums, error.code, error.message] }`)
    expect(outcome(result)).toEqual(['OK', [[2, 4], 'TOO_MANY_CALLS',
      'Error: run_code allows at most 2 tool calls per run; do more per call or split the work']])
  })

  it('is exclusive for the scheduler', async () => {
    const ctx: Context = await started({})
    expect(ctx.tools.get('run_code')?.isConcurrencySafe?.({ code: 'return 1' })).toBe(false)
  })
})
