/**
 * `isolatedTool` turns an ES module export into a kernel tool whose body runs in a worker
 * thread, so that an abort (the caller's, or the timeout plugin's deadline) ends the body
 * even when it never looks at a signal: the worker is terminated. A throw in the worker
 * keeps its message, name and `code`; the value crosses back by structured clone.
 */
import { isAbsolute } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Context } from 'cordis'
import type { Json, ToolDefinition } from '@rein/kernel'
import { IsolatePool, type IsolatedReply, type PoolOptions } from './pool.js'

/** A tool definition without a body, plus where the body lives. */
export interface IsolatedToolOptions<A = any> extends Omit<ToolDefinition<A, Json>, 'execute'> {
  /** The tool's ES module: a `file:` URL (e.g. `new URL('./grep.mjs', import.meta.url)`) or an absolute path. */
  module: URL | string
  /** The export to call as `fn(args, { progress })`. Default `'default'`. */
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
  const { module, export: name = 'default', pool: poolOptions, ...definition } = options
  const href = moduleHref(module, definition.name)
  const pool = new IsolatePool(poolOptions)
  return {
    ...definition,
    async execute(args, exec) {
      const reply = await pool.run({ module: href, export: name, args }, exec.signal, exec.progress)
      if (reply.ok) return reply.value as Json
      throw rebuild(reply.error)
    },
    threads: () => pool.threads(),
    settled: () => pool.settled(),
    dispose: () => pool.dispose(),
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

/** The module's `file:` URL; anything relative would resolve against the worker, not the caller. */
function moduleHref(module: URL | string, tool: string): string {
  const href = module instanceof URL ? module.href
    : module.startsWith('file:') ? new URL(module).href
      : isAbsolute(module) ? pathToFileURL(module).href : undefined
  if (!href?.startsWith('file:')) {
    throw new TypeError(`isolated tool "${tool}": module must be a file: URL or an absolute path, got "${String(module)}"; ` +
      `use new URL('./tool.mjs', import.meta.url)`)
  }
  return href
}

/** The worker's error record as an Error the kernel reads: message, name, code. */
function rebuild(record: Extract<IsolatedReply, { ok: false }>['error']): Error {
  const error = new Error(record.message) as Error & { code?: string }
  if (record.name) error.name = record.name
  if (record.code) error.code = record.code
  return error
}
