/**
 * `standardStack` itself: what it loads, where each plugin lands on every hook, and that a bad
 * config fails before anything is loaded.
 */
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, TOOL_TIMEOUT, type ToolExecutionResult } from '@rein/kernel'
import { DEFAULT_TIMEOUT_MS } from '@rein/plugin-timeout-policy'
import { describe, expect, it, vi } from 'vitest'
import { STANDARD_ORDER, standardPlugins, standardStack, type StandardStackOptions } from '../src/index.js'
import { auditFile } from './helpers.js'

/** A plugin with one plain `tools/post-execute` handler that accepts unchanged. */
const postPlugin = (name: string) => ({
  name, inject: ['tools'],
  apply: (ctx: Context) => { ctx.on('tools/post-execute', async (_exec, _result, next) => next()) },
})

async function load(options: Omit<StandardStackOptions, 'audit'>, around?: { before: string, after: string }) {
  const ctx = new Context()
  ctx.plugin(kernel)
  if (around) ctx.plugin(postPlugin(around.before))
  const forks = standardStack(ctx, { audit: { file: await auditFile() }, ...options })
  if (around) ctx.plugin(postPlugin(around.after))
  await ctx.start()
  return { ctx, forks }
}

describe('standardStack', () => {
  it('loads the six plugins, in the recommended order, without errors', async () => {
    const { forks } = await load({ spill: { store: 'memory' } })
    expect(standardPlugins({ audit: { file: 'a.jsonl' } }).map((entry) => entry.name)).toEqual([...STANDARD_ORDER])
    expect(forks.map((fork) => [fork.runtime.plugin.name, fork.error])).toEqual(STANDARD_ORDER.map((name) => [name, undefined]))
  })

  it('puts each plugin where the order promises on every hook, outermost first', async () => {
    const { ctx } = await load({ spill: { store: 'memory' } })
    const hooks = ['tools/pre-execute', 'guards', 'tools/execute', 'tools/post-execute', 'tools/result'] as const
    expect(Object.fromEntries(hooks.map((hook) => [hook, ctx.tools.chain(hook)]))).toEqual({
      'tools/pre-execute': ['permission-guard'],
      'guards': ['permission-guard'],
      'tools/execute': ['cache', 'retry', 'timeout-policy'],
      'tools/post-execute': ['spill'],
      'tools/result': ['audit'],
    })
  })

  it('keeps spill outermost on post-execute, whatever is loaded before or after the stack', async () => {
    const { ctx } = await load({ spill: { store: 'memory' } }, { before: 'early-post', after: 'late-post' })
    expect(ctx.tools.chain('tools/post-execute')).toEqual(['spill', 'early-post', 'late-post'])
  })

  it('leaves the deadline to the timeout policy\'s finite default unless the caller configures one', () => {
    const timeoutOf = (options: Partial<StandardStackOptions>) =>
      standardPlugins({ audit: { file: 'a.jsonl' }, ...options }).find((entry) => entry.name === 'timeout-policy')!
    const loaded = timeoutOf({})
    expect(loaded.config).toEqual({})
    expect(loaded.plugin.Config(loaded.config)).toMatchObject({ defaultMs: DEFAULT_TIMEOUT_MS })
    expect(DEFAULT_TIMEOUT_MS).toBe(30_000)
    expect(timeoutOf({ timeout: { defaultMs: 5_000, graceMs: 10 } }).config).toEqual({ defaultMs: 5_000, graceMs: 10 })
  })

  it('ends a never-settling tool that names no deadline with TOOL_TIMEOUT after the default 30 s (+1 s grace)', async () => {
    const { ctx } = await load({ spill: { store: 'memory' } })
    ctx.tools.register(defineTool({ name: 'stall', description: 'never answers', parameters: { type: 'object' }, execute: () => new Promise(() => {}) }))
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
    try {
      let result: ToolExecutionResult | undefined
      void ctx.tools.execute({ id: 'c1', name: 'stall', arguments: {} }).then((r) => { result = r })
      await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS + 1000 - 1)
      expect(result).toBeUndefined()
      await vi.advanceTimersByTimeAsync(1)
      await new Promise<void>((resolve) => setImmediate(resolve))
      expect(result).toMatchObject({ isError: true, error: { info: { code: TOOL_TIMEOUT, name: 'ToolTimeoutAbandoned' } } })
      expect(result!.content[0]).toEqual({ type: 'text', text: 'Error: tool call timed out after 30000ms' })
    } finally {
      vi.useRealTimers()
    }
  })

  it.each([
    [{ retry: { maxAttempts: 0 } }, '"retry" is invalid: $.maxAttempts expected number >= 1 but got 0'],
    [{ spill: { store: 'memory', dir: '/tmp/x' } }, '"spill" is invalid: $.dir is only used by store "local"'],
    [{ permissions: { rules: [{ tool: 'read_[', action: 'allow' }] } }, '"permission-guard" is invalid: $.rules[0].tool'],
  ] as [Omit<StandardStackOptions, 'audit'>, string][])('rejects %j before loading anything, naming the plugin and the key', async (options, message) => {
    const ctx = new Context()
    ctx.plugin(kernel)
    const file = await auditFile()
    expect(() => standardStack(ctx, { audit: { file }, ...options })).toThrow(`standard stack: the config of ${message}`)
    await ctx.start()
    expect([ctx.tools.chain('tools/pre-execute'), ctx.tools.chain('tools/execute')]).toEqual([[], []])
  })
})
