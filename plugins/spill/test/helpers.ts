// Shared test setup: a real kernel with the spill plugin, a tool that returns whatever text
// the test hands it, and a way to collect the plugin's warnings.
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, type ToolExecutionResult } from '@rein/kernel'
import { onTestFinished } from 'vitest'
import * as spill from '../src/index.js'


/**
 * A started context with the kernel, the tools `emit` and `other` (they return the text the
 * test stored under `args.key`, or throw it when `args.fail`), then `before`, then spill.
 * A local store still in place when the test finishes is closed, which deletes a default
 * temporary directory (one the test disposed of has been closed by the plugin).
 */
export async function harness(config: Record<string, unknown> = { store: 'memory' }, before?: (ctx: Context) => void) {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  const outputs = new Map<string, string>()
  const emit = (name: string) => defineTool({
    name,
    description: 'returns the text registered for it',
    parameters: { type: 'object', properties: { key: { type: 'string' }, fail: { type: 'boolean' } } },
    execute: (args: { key?: string, fail?: boolean }) => {
      const text = outputs.get(args.key ?? 'default') ?? ''
      if (args.fail) throw Object.assign(new Error(text), { code: 'E_BIG' })
      return text
    },
  })
  ctx.plugin({ name: 'tools-under-test', inject: ['tools'], apply: (c: Context) => { c.tools.register(emit('emit')); c.tools.register(emit('other')) } })
  if (before) ctx.plugin({ name: 'before-spill', inject: ['tools'], apply: before })
  const fork = ctx.plugin(spill, config)
  await ctx.start()
  onTestFinished(async () => {
    const store = ctx.get('spillStore')
    if (store instanceof spill.LocalSpillStore) await store.close()
  })
  let id = 0
  const call = (name: string, args: Record<string, unknown> = {}): Promise<ToolExecutionResult> =>
    ctx.tools.execute({ id: `call_${++id}`, name, arguments: args })
  return { ctx, fork, outputs, call }
}

/** The text of a result's first content block. */
export function firstText(result: ToolExecutionResult): string {
  const block = result.content[0]
  if (block?.type !== 'text') throw new Error('expected a text block first')
  return block.text
}
