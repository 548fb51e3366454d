import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, type ToolDefinition, type ToolExecutionResult } from '@rein/kernel'
import { vi } from 'vitest'
import * as timeout from '../src/index.js'

/** Fake `setTimeout` and `Date` only: real `setImmediate` drains pending promise work. */
export function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
}

/** Lets every pending promise continuation run (one real macrotask). */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A started kernel with the timeout policy (config as given) and `tools` registered. */
export async function harness(config: timeout.ConfigInput, tools: ToolDefinition[]) {
  const ctx = new Context()
  ctx.plugin(kernel)
  ctx.plugin(timeout, config)
  ctx.plugin({ name: 'tools-under-test', inject: ['tools'], apply: (ctx: Context) => tools.forEach((t) => ctx.tools.register(t)) })
  await ctx.start()
  return ctx
}

/** A tool whose body is `body`; arguments are free. */
export function tool(name: string, body: ToolDefinition['execute'], extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return defineTool({ name, description: `test tool ${name}`, parameters: { type: 'object' }, execute: body, ...extra })
}

/** A body that never settles and ignores its signal. */
export const stuck = () => new Promise<never>(() => {})

/** A body that settles only when its signal aborts, rejecting with the signal's reason. */
export const cooperative: ToolDefinition['execute'] = (_args, exec) => new Promise((_resolve, reject) => {
  const signal = exec.signal
  if (signal.aborted) reject(signal.reason)
  else signal.addEventListener('abort', () => reject(signal.reason), { once: true })
})

/** Starts a call and reports whether it has settled yet. */
export function track(promise: Promise<ToolExecutionResult>) {
  const state: { result?: ToolExecutionResult } = {}
  void promise.then((result) => { state.result = result })
  return state
}

/** `[code, info.name]` of a result, `['OK']` for a success. */
export function outcome(result: ToolExecutionResult | undefined) {
  if (!result) return ['pending']
  return result.isError ? [result.error.info?.code, result.error.info?.name] : ['OK']
}
