import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, type ToolDefinition, type ToolExecutionResult } from '@rein/kernel'
import { vi } from 'vitest'
import { createRetry, type ConfigInput, type RetryDeps } from '../src/index.js'

/** Fake `setTimeout` and `Date` only: real `setImmediate` drains pending promise work. */
export function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
}

/** Lets every pending promise continuation run (one real macrotask). */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A sleep that returns at once and records how long it was asked to wait. */
export function recordingSleep() {
  const delays: number[] = []
  const sleep: RetryDeps['sleep'] = async (ms) => { delays.push(ms) }
  return { delays, sleep }
}

/** A started kernel with a retry plugin (`createRetry(deps)`, config as given) and `tools`. */
export async function harness(config: ConfigInput, tools: ToolDefinition[], deps: Partial<RetryDeps> = {}) {
  const ctx = new Context()
  ctx.plugin(kernel)
  ctx.plugin(createRetry(deps), config)
  ctx.plugin({ name: 'tools-under-test', inject: ['tools'], apply: (ctx: Context) => tools.forEach((t) => ctx.tools.register(t)) })
  await ctx.start()
  return ctx
}

/** An error a body throws, carrying a code (the kernel copies it to `error.info.code`). */
export function coded(code: string, message = `failed with ${code}`) {
  return Object.assign(new Error(message), { code })
}

/**
 * A tool that throws the codes in `failures` one per run, then returns `'ok'`.
 * `runs` counts its body runs.
 */
export function flaky(failures: string[], extra: Partial<ToolDefinition> = {}) {
  const state = { runs: 0 }
  const definition = defineTool({
    name: 'flaky', description: 'fails, then works', parameters: { type: 'object' }, idempotent: true,
    execute: () => {
      const failure = failures[state.runs++]
      if (failure !== undefined) throw coded(failure)
      return 'ok'
    },
    ...extra,
  })
  return { definition, state }
}

/** `[code or 'OK', meta.attempts]` of a result. */
export function summary(result: ToolExecutionResult) {
  return [result.isError ? result.error.info?.code : 'OK', result.meta?.attempts]
}
