/**
 * `@rein/tool-run-code`: the `run_code` tool as a cordis plugin. The model's JavaScript runs in
 * a QuickJS sandbox (WebAssembly, in a worker thread) with capped memory, stack and time, and
 * no host access; inside it, `await tools.<name>(args)` is a call through `ctx.tools.execute`,
 * so every plugin applies. Disposing the plugin removes the tool and ends its threads.
 */
import type { Context } from 'cordis'
import { Config, DEFAULT_STACK_BYTES, type ConfigInput } from './config.js'
import { SandboxPool } from './pool.js'
import { runCodeTool } from './tool.js'

/** The cordis plugin name. */
export const name = 'tool-run-code'
/** Applied after the kernel, which provides `ctx.tools`. */
export const inject = ['tools']
export { Config, type ConfigInput }

/** Registers `run_code` for as long as the plugin lives. */
export function apply(ctx: Context, config: Config) {
  const pool = new SandboxPool({
    stackSizeMb: threadStackMb(config.maxStackBytes ?? DEFAULT_STACK_BYTES),
    memoryLimitBytes: config.memoryLimitBytes,
  })
  ctx.effect(() => () => pool.dispose())
  ctx.tools.register(runCodeTool(ctx, config, pool))
}

/**
 * The V8 stack of a sandbox thread, in MB. QuickJS's recursion runs on it as WebAssembly frames
 * that take 2 to 32 times the bytes QuickJS counts (measured: plain calls ~3x, the parser on a
 * deeply nested literal ~32x), so it gets 48 times the limit and 4 MB more: deep recursion then
 * ends in QuickJS's own catchable error, not in a host stack overflow (which would only cost the
 * thread: the run fails with SANDBOX_FAILED and the thread is replaced).
 */
export function threadStackMb(maxStackBytes: number): number {
  return Math.ceil((48 * maxStackBytes) / (1024 * 1024)) + 4
}

export * from './codes.js'
export { DEFAULT_STACK_BYTES, MAX_STACK_BYTES } from './config.js'
export { callableTools, describeRunCode, RUN_CODE } from './description.js'
export { runCodeTool, type RunCodeArgs } from './tool.js'
