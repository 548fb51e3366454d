/**
 * `isolatedTool` turns an ES module export into a kernel tool whose body runs in a worker
 * thread, so that an abort (the caller's, or the timeout plugin's deadline) ends the body
 * even when it never looks at a signal: the worker is terminated. A throw in the worker
 * keeps its message, name and `code`; the value crosses back by structured clone.
 */
import type { Context } from 'cordis'
import type { Json, ToolDefinition } from '@rein/kernel'
import { isolatedFunction } from './isolated-function.js'
import type { PoolOptions } from './pool.js'

/** A tool definition without a body, plus where the body lives. */
export interface IsolatedToolOptions<A = any> extends Omit<ToolDefinition<A, Json>, 'execute'> {
  /** The tool's ES module: a `file:` URL (e.g. `new URL('./grep.mjs', import.meta.url)`) or an absolute path. */
  module: URL | string
  /** The export to call: a function `fn(args, { progress })`, or a tool definition whose `execute` is called. Default `'default'`. */
  export?: string
  pool?: PoolOptions
}

/** A tool definition that owns a worker pool. */
export interface IsolatedTool<A = any> extends ToolDefinition<A, Json> {
  /** Worker threads of this tool that have not exited yet (0 before the first call). */
  threads(): number
  /** Resolves once every worker this tool has let go of (aborted, idle, disposed) has exited. */
  settled(): Promise<void>
  /** Terminates this tool's workers; resolves once they have all exited. */
  dispose(): Promise<void>
}

/**
 * Declares an isolated tool. No thread starts until the first call. The caller owns the
 * pool: call `dispose()` when the tool is no longer needed (or use `registerIsolated`).
 * Throws a `TypeError` at once when `module` is not absolute.
 */
export function isolatedTool<A = any>(options: IsolatedToolOptions<A>): IsolatedTool<A> {
  const { module, export: name, pool, ...definition } = options
  const body = isolatedFunction<A, Json>({ module, export: name, pool, label: `isolated tool "${definition.name}"` })
  return {
    ...definition,
    execute: (args, exec) => body.run(args, exec.signal, exec.progress),
    threads: () => body.threads(),
    settled: () => body.settled(),
    dispose: () => body.dispose(),
  }
}

/**
 * Runs in a plugin's `apply`: registers an isolated tool for as long as the plugin lives and
 * destroys its pool when the plugin is disposed. Returns the tool (for `threads()`/`settled()`).
 */
export function registerIsolated<A = any>(ctx: Context, options: IsolatedToolOptions<A>): IsolatedTool<A> {
  const tool = isolatedTool(options)
  ctx.effect(() => () => tool.dispose())
  ctx.tools.register(tool)
  return tool
}
