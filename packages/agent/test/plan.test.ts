import { describe, expect, it } from 'vitest'
import { defineTool, type ToolCall } from '@rein/kernel'
import { planBatch } from '../src/plan.js'
import { batchTools } from '../src/tool-access.js'
import { kernelContext } from './helpers.js'

async function tools() {
  const ctx = await kernelContext()
  ctx.tools.register(defineTool({ name: 'read', description: '', parameters: { type: 'object' }, isConcurrencySafe: () => true, execute: () => 1 }))
  ctx.tools.register(defineTool({ name: 'write', description: '', parameters: { type: 'object' }, execute: () => 1 }))
  ctx.tools.register(defineTool({
    name: 'strict', description: '', parameters: { type: 'object', properties: { n: { type: 'number' } } },
    isConcurrencySafe: () => true, execute: () => 1,
  }))
  // Safe or not by its arguments: a call with references stays pending until they are substituted.
  ctx.tools.register(defineTool({
    name: 'byPath', description: '', parameters: { type: 'object' },
    isConcurrencySafe: (args: { path?: unknown }) => args.path !== 'locked', execute: () => 1,
  }))
  return batchTools(ctx.tools)
}

const call = (id: string, name: string, args: unknown): ToolCall => ({ id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) })

describe('planBatch', () => {
  it('classifies fail-closed: unknown tool, invalid arguments and no isConcurrencySafe are exclusive', async () => {
    const plan = planBatch([
      call('a', 'read', {}), call('b', 'write', {}), call('c', 'nope', {}), call('d', 'strict', { n: 'x' }), call('e', 'read', '{bad'),
    ], await tools())
    expect(plan.calls.map((c) => c.mode)).toEqual(['parallel', 'exclusive', 'exclusive', 'exclusive', 'exclusive'])
    expect(plan.calls[4].args).toBe('{bad')
  })

  it('reads arguments as the kernel does: the tool gets the very object planned when it needs no change', async () => {
    const seen: unknown[] = []
    const ctx = await kernelContext()
    ctx.tools.register(defineTool({ name: 'see', description: '', parameters: { type: 'object' }, execute: (args) => { seen.push(args); return 1 } }))
    const plan = planBatch([call('a', 'see', { path: 'x' }), call('b', 'see', { path: 'y', $depends_on: ['a'] })], batchTools(ctx.tools))
    for (const planned of plan.calls) await ctx.tools.execute({ ...planned.call, arguments: planned.args as never })
    expect(Object.isFrozen(plan.calls[0].args)).toBe(true)
    expect(seen[0]).toBe(plan.calls[0].args) // taken as it is: no second parse, no copy
    expect(seen[1]).not.toBe(plan.calls[1].args) // a new object without $depends_on: the kernel copies it
    expect(seen[1]).toEqual({ path: 'y' })
  })

  it('strips $depends_on before classification and keeps its edges', async () => {
    const plan = planBatch([call('a', 'read', {}), call('b', 'strict', { n: 1, $depends_on: ['a'] })], await tools())
    expect(plan.calls[1]).toMatchObject({ args: { n: 1 }, deps: [0], mode: 'parallel', hasRefs: false })
    expect(plan.calls[0].dependents).toEqual([1])
  })

  it('classifies a call with references at once when its tool\'s check cannot read arguments; else leaves it pending', async () => {
    const plan = planBatch([
      call('a', 'read', {}), call('b', 'read', { x: '${a.result}' }), call('c', 'write', { x: '${a.result}' }), call('d', 'byPath', { path: '${a.result}' }),
    ], await tools())
    expect(plan.calls.map((c) => c.mode)).toEqual(['parallel', 'parallel', 'exclusive', 'pending'])
  })

  it('marks malformed $depends_on, unknown, repeated and ambiguous ids INVALID_PLAN, with a message saying what to do', async () => {
    const plan = planBatch([
      call('a', 'read', { $depends_on: 'b' }), call('b', 'read', { $depends_on: ['zz'] }),
      call('d', 'read', {}), call('d', 'read', {}), call('e', 'read', { x: '${d.result}' }),
    ], await tools())
    expect(plan.calls.map((c) => c.invalid)).toEqual([
      '"$depends_on" must be an array of call ids of this batch, like ["call_1"]',
      'this call depends on "zz", which is not a call of this batch; depend only on calls made in the same message',
      undefined,
      'the id "d" was already given to an earlier call of this message, so this call did not run; give every call an id of its own',
      '"d" names more than one call of this batch, so nothing can depend on it',
    ])
  })

  it('takes the ids the model gave renamed calls: every repeat is INVALID_PLAN, and a reference to the id stays ambiguous', async () => {
    const plan = planBatch([
      call('x', 'read', {}), call('x_2', 'read', { $depends_on: ['nothing'] }), call('x_3', 'read', {}), call('y', 'read', { v: '${x.result}' }),
    ], await tools(), new Map([[1, 'x'], [2, 'x']]))
    expect(plan.calls.map((c) => c.invalid)).toEqual([
      undefined,
      'the id "x" was already given to an earlier call of this message, so this call did not run (its result is listed under "x_2"); give every call an id of its own',
      'the id "x" was already given to an earlier call of this message, so this call did not run (its result is listed under "x_3"); give every call an id of its own',
      '"x" names more than one call of this batch, so nothing can depend on it',
    ])
    expect(plan.calls[1]).toMatchObject({ deps: [], mode: 'exclusive', args: '{"$depends_on":["nothing"]}' })
  })

  it('hands arguments the kernel refuses (nested too deep, a __proto__ key) on as sent: no edges, no walk, exclusive', async () => {
    const deep = `{"x":"\${a.result}","n":${'['.repeat(100_000)}${']'.repeat(100_000)}}`
    const proto = '{"__proto__":1,"x":"${a.result}","$depends_on":["a"]}'
    const deepObject = JSON.parse(`{"x":"\${a.result}","n":${'['.repeat(600)}${']'.repeat(600)}}`)
    const plan = planBatch([
      call('a', 'read', {}), call('deep', 'read', deep), call('proto', 'read', proto),
      { id: 'object', name: 'read', arguments: deepObject }, call('fine', 'read', {}),
    ], await tools())
    expect(plan.calls.slice(1, 4).map((c) => ({ args: c.args, deps: c.deps, mode: c.mode, invalid: c.invalid, hasRefs: c.hasRefs })))
      .toEqual([deep, proto, deepObject].map((args) => ({ args, deps: [], mode: 'exclusive', invalid: undefined, hasRefs: false })))
    expect(plan.calls[4]).toMatchObject({ mode: 'parallel', invalid: undefined })
  })

  it('makes a call it cannot plan INVALID_PLAN, and only that call', async () => {
    const t = await tools()
    const broken = {
      executionMode: (c: ToolCall) => { if (c.id === 'b') throw new Error('lookup broke'); return t.executionMode(c) },
      modeWithoutArguments: (name: string) => t.modeWithoutArguments(name),
      get: (name: string) => t.get(name),
    }
    const plan = planBatch([call('a', 'read', {}), call('b', 'read', {}), call('c', 'read', {})], broken)
    expect(plan.calls.map((c) => c.invalid)).toEqual([undefined, 'this call could not be planned (lookup broke)', undefined])
  })

  it('marks only the calls that close a cycle, counting barrier order', async () => {
    const plan = planBatch([
      call('x', 'read', { $depends_on: ['z'] }), call('w', 'write', {}), call('z', 'read', {}), call('free', 'read', { $depends_on: ['z'] }),
    ], await tools())
    expect(plan.calls.map((c) => c.invalid === undefined)).toEqual([false, true, true, true])
    expect(plan.calls[0].deps).toEqual([])
    expect(plan.calls[3].deps).toEqual([2])
  })

  it('rejects a reference to a later call when the referencing call must wait to be classified', async () => {
    const plan = planBatch([call('x', 'byPath', { path: '${y.result}' }), call('y', 'read', {})], await tools())
    expect(plan.calls[0].invalid).toMatch(/^dependency cycle through x, y/)
    expect(plan.calls[1].invalid).toBeUndefined()
  })

  it('accepts a forward $depends_on, or reference, that no barrier separates, and handles a 10,000-call chain', async () => {
    const t = await tools()
    expect(planBatch([call('x', 'read', { $depends_on: ['y'] }), call('y', 'read', {})], t).calls[0].invalid).toBeUndefined()
    expect(planBatch([call('x', 'read', { v: '${y.result}' }), call('y', 'read', {})], t).calls[0].invalid).toBeUndefined()
    const chain = Array.from({ length: 10_000 }, (_, i) => call(`c${i}`, 'read', i < 9_999 ? { $depends_on: [`c${i + 1}`] } : {}))
    chain[9_999] = call('c9999', 'read', { $depends_on: ['c0'] })
    const plan = planBatch(chain, t)
    expect(plan.calls.every((c) => c.invalid?.startsWith('dependency cycle'))).toBe(true)
  })
})
