import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { Context } from 'cordis'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ABORTED, ABORTED_BEFORE_DISPATCH, TOOL_FAILED, defineTool } from '../src/index.js'
import { call, code, deferred, echoTool, firstText, makeKernel, plug } from './helpers.js'


describe("a caller's abort is sovereign", () => {
  let ctx: Context
  let observed: string[]
  let release: ReturnType<typeof deferred>
  beforeEach(async () => {
    ctx = await makeKernel({ abandonAfterMs: 20 })
    observed = []
    release = deferred()
    await plug(ctx, 'observer', (ctx) => { ctx.on('tools/result', (_e, result) => { observed.push(code(result)) }) })
  })
  afterEach(async () => {
    release.resolve()
    await ctx.stop()
  })

  /** A tool whose body ignores every signal and only ends when the test releases it. */
  const stubborn = (started: () => void, outcome: () => unknown = () => 'finished late') => defineTool({
    name: 'stubborn', description: 'ignores aborts', parameters: { type: 'object' },
    execute: async () => { started(); await release.promise; return outcome() },
  })

  it('a plugin that swaps in an unlinked signal cannot keep an aborted call running: ABORTED, observed once', async () => {
    const bodyStarted = deferred()
    ctx.tools.register(stubborn(bodyStarted.resolve))
    await plug(ctx, 'unlinker', (ctx) => {
      ctx.on('tools/execute', async (exec, next) => {
        const saved = exec.signal
        exec.signal = new AbortController().signal
        try { return await next() } finally { exec.signal = saved }
      })
    })
    const controller = new AbortController()
    const pending = ctx.tools.execute(call({}, 'stubborn'), { signal: controller.signal })
    await bodyStarted.promise
    controller.abort()
    const result = await pending
    expect(code(result)).toBe(ABORTED)
    expect(firstText(result)).toBe('Error: tool call aborted')
    expect(result.isError && result.error.info?.name).toBe('Abandoned')
    // The body's late value is dropped: the observers saw the call exactly once.
    release.resolve()
    await new Promise((resolve) => setImmediate(resolve))
    expect(observed).toEqual([ABORTED])
  })

  it('a pre-execute hook that never answers: ABORTED_BEFORE_DISPATCH, and the body never runs', async () => {
    let ran = false
    ctx.tools.register(stubborn(() => { ran = true }))
    const hookEntered = deferred()
    await plug(ctx, 'hangs', (ctx) => {
      ctx.on('tools/pre-execute', async () => { hookEntered.resolve(); return new Promise(() => {}) })
    })
    const controller = new AbortController()
    const pending = ctx.tools.execute(call({}, 'stubborn'), { signal: controller.signal })
    await hookEntered.promise
    controller.abort()
    const result = await pending
    expect(code(result)).toBe(ABORTED_BEFORE_DISPATCH)
    expect(ran).toBe(false)
  })

  it('a failure reached before a post-execute hook hung is the outcome kept', async () => {
    ctx.tools.register(defineTool({ name: 'fails', description: 'throws', parameters: { type: 'object' }, execute: () => { throw new Error('disk full') } }))
    const postEntered = deferred()
    await plug(ctx, 'hangs-after', (ctx) => {
      ctx.on('tools/post-execute', async () => { postEntered.resolve(); return new Promise(() => {}) })
    })
    const controller = new AbortController()
    const pending = ctx.tools.execute(call({}, 'fails'), { signal: controller.signal })
    await postEntered.promise
    controller.abort()
    const result = await pending
    expect(code(result)).toBe(TOOL_FAILED)
    expect(firstText(result)).toBe('Error: disk full')
  })

  it.each(['allow-once', 'deny', 'never'] as const)('an abort while an approval is pending wins over a later answer (%s): ABORTED_BEFORE_DISPATCH at once', async (later) => {
    let ran = false
    ctx.tools.register(stubborn(() => { ran = true }))
    const asked = deferred()
    const answer = deferred<'allow-once' | 'deny'>()
    ctx.set('approval', { request: () => { asked.resolve(); return answer.promise } })
    await plug(ctx, 'asks', (ctx) => { ctx.on('tools/pre-execute', async () => ({ kind: 'ask', reason: 'check' })) })
    const controller = new AbortController()
    const pending = ctx.tools.execute(call({}, 'stubborn'), { signal: controller.signal })
    await asked.promise
    controller.abort()
    if (later !== 'never') answer.resolve(later)
    const result = await pending
    expect(code(result)).toBe(ABORTED_BEFORE_DISPATCH)
    // Settled by the abort itself, not by giving up on the approval later.
    expect(result.isError && result.error.info?.name).toBeUndefined()
    expect(ran).toBe(false)
  })

  it('a success turned ABORTED keeps the additional context it already had', async () => {
    const controller = new AbortController()
    ctx.tools.register(defineTool({
      name: 'quick', description: 'succeeds after the abort', parameters: { type: 'object' },
      execute: async () => { controller.abort(); return 'done' },
    }))
    await plug(ctx, 'adds-context', (ctx) => {
      ctx.on('tools/execute', async (_e, next) => {
        const result = await next()
        return { ...result, additionalContexts: [{ type: 'text', text: 'remember this' }] }
      })
    })
    const result = await ctx.tools.execute(call({}, 'quick'), { signal: controller.signal })
    expect(code(result)).toBe(ABORTED)
    expect(result.additionalContexts).toEqual([{ type: 'text', text: 'remember this' }])
  })

  it('a call that settles on its own is not touched by an abort that comes later', async () => {
    ctx.tools.register(defineTool({ name: 'fast', description: 'returns', parameters: { type: 'object' }, execute: () => 'ok' }))
    const controller = new AbortController()
    const result = await ctx.tools.execute(call({}, 'fast'), { signal: controller.signal })
    controller.abort()
    expect(code(result)).toBe('OK')
    expect(observed).toEqual(['OK'])
  })
})

describe('a signal that outlives its calls', () => {
  it('keeps nothing of a finished call alive but the last one (which the next call lets go)', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const ctx = await makeKernel()
    ctx.tools.register(echoTool())
    const signal = new AbortController().signal // an app-wide signal, handed to every run
    const refs: WeakRef<object>[] = []
    const run = async (text: string) => {
      const stages = { bodyStart() {} } // held by the call's record, as a scheduler's slot is
      refs.push(new WeakRef(stages))
      await ctx.tools.execute(call({ text }), { signal, stages })
    }
    await run('a')
    await run('b')
    await run('c')
    await new Promise((resolve) => setImmediate(resolve))
    gc()
    expect(refs.map((ref) => ref.deref() !== undefined)).toEqual([false, false, true])
    await ctx.stop()
  })
})
