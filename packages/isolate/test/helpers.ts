import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import type { ProgressInfo, ToolExecutionResult } from '@rein/kernel'
import { isolatedTool, type IsolatedToolOptions } from '../src/index.js'

/** The fixture module every test tool runs. */
export const FIXTURE = new URL('./fixtures/tools.mjs', import.meta.url)

/** An isolated tool that calls `fn` of the fixture module. */
export function fixtureTool(name: string, fn: string, extra: Partial<IsolatedToolOptions> = {}) {
  return isolatedTool({ name, description: `fixture ${fn}`, parameters: { type: 'object' }, module: FIXTURE, export: fn, ...extra })
}

/** A started kernel, with `plugins` applied after it in order. */
export async function harness(...plugins: [plugin: any, config?: any][]) {
  const ctx = new Context()
  ctx.plugin(kernel)
  for (const [plugin, config] of plugins) ctx.plugin(plugin, config)
  await ctx.start()
  return ctx
}

/** A promise of the first progress report, and the listener that fulfils it. */
export function firstProgress() {
  let onProgress!: (info: ProgressInfo | undefined) => void
  const reported = new Promise<ProgressInfo | undefined>((resolve) => { onProgress = resolve })
  return { reported, onProgress }
}

/** `[code, info.name]` of a result, `['OK']` for a success. */
export function outcome(result: ToolExecutionResult) {
  return result.isError ? [result.error.info?.code, result.error.info?.name] : ['OK']
}
