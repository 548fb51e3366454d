import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, type ToolDefinition, type ToolExec, type ToolExecutionResult } from '@rein/kernel'
import { createCache, type ConfigInput } from '../src/index.js'

/** A started kernel with a cache plugin (clock `now`, config as given) and `tools`. */
export async function harness(config: ConfigInput, tools: ToolDefinition[], now?: () => number) {
  const ctx = new Context()
  ctx.plugin(kernel)
  ctx.plugin(createCache({ now }), config)
  ctx.plugin({ name: 'tools-under-test', inject: ['tools'], apply: (ctx: Context) => tools.forEach((t) => ctx.tools.register(t)) })
  await ctx.start()
  return ctx
}

/** A clock the test moves by hand. */
export function manualClock(start = 1_000_000) {
  const clock = { t: start, now: () => clock.t }
  return clock
}

/** A tool returning `value:<arguments as JSON>`; `runs` counts its body runs. */
export function counted(extra: Partial<ToolDefinition> = {}) {
  const state = { runs: 0 }
  const definition = defineTool({
    name: 'lookup', description: 'a pure lookup', parameters: { type: 'object' }, idempotent: true,
    execute: (args: unknown) => { state.runs++; return `value:${JSON.stringify(args)}` },
    ...extra,
  })
  return { definition, state }
}

/** One body run of a `held` tool, settled by the test. */
export interface Run {
  exec: ToolExec
  succeed(value: string): void
  fail(code: string): void
}

/**
 * A tool (idempotent unless told) whose runs wait for the test: `runs` lists them as they start,
 * `started(n)` resolves when n runs have started. A run also rejects when its signal aborts.
 */
export function held(name = 'held', idempotent = true) {
  const runs: Run[] = []
  const waiters: Array<[number, () => void]> = []
  const definition = defineTool({
    name, description: 'waits for the test', parameters: { type: 'object' }, idempotent,
    execute: (_args: unknown, exec: ToolExec) => new Promise<string>((resolve, reject) => {
      const signal = exec.signal
      signal.addEventListener('abort', () => reject(signal.reason), { once: true })
      runs.push({ exec, succeed: resolve, fail: (code) => reject(Object.assign(new Error(`failed with ${code}`), { code })) })
      for (const [n, wake] of waiters) if (runs.length >= n) wake()
    }),
  })
  const started = (n: number) => new Promise<void>((resolve) => {
    if (runs.length >= n) resolve()
    else waiters.push([n, resolve])
  })
  return { definition, runs, started }
}

/** `[code or 'OK', cacheHit, cacheShared]` of a result. */
export function summary(result: ToolExecutionResult) {
  return [result.isError ? result.error.info?.code : 'OK', result.meta?.cacheHit, result.meta?.cacheShared]
}

/**
 * Plugs a probe; its `all` resolves once every call in `ids` has entered the cache. It hooks outermost: when its
 * `next()` returns, the cache has synchronously begun to wait for a run already in flight.
 */
export async function entered(ctx: Context, ids: string[]) {
  const pending = new Set(ids)
  let done = () => {}
  const all = new Promise<void>((resolve) => { done = resolve })
  ctx.plugin({ name: 'probe', inject: ['tools'], apply: (ctx: Context) => ctx.on('tools/execute', (exec, next) => {
    const result = next()
    if (pending.delete(exec.id) && pending.size === 0) done()
    return result
  }, { prepend: true }) })
  await ctx.start()
  return { all }
}
