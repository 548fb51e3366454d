/**
 * `isolatedFunction` runs an ES module export in a worker thread of its own pool, call by call,
 * so that an abort ends a call even when its code never looks at a signal: the worker is
 * terminated and `run` rejects with the signal's reason. A throw in the worker keeps its
 * message, name and `code`; arguments and the value cross by structured clone.
 */
import { isAbsolute } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ProgressInfo } from '@rein/kernel'
import { IsolatePool, type IsolatedReply, type PoolOptions } from './pool.js'

export interface IsolatedFunctionOptions {
  /** The ES module: a `file:` URL (e.g. `new URL('./match.mjs', import.meta.url)`) or an absolute path. */
  module: URL | string
  /** The export to call: a function, called as `fn(args, { progress })`, or a tool definition (see README). Default `'default'`. */
  export?: string
  pool?: PoolOptions
  /** Names the function in the error for a bad `module`. */
  label?: string
}

/** A function that runs in worker threads, with the pool that runs it. */
export interface IsolatedFunction<A = unknown, R = unknown> {
  /**
   * Calls the export with `args` in a worker of its own. Resolves with its value; rejects with
   * its error (message, name, code), or with `signal`'s reason once `signal` aborts.
   */
  run(args: A, signal: AbortSignal, progress?: (info?: ProgressInfo) => void): Promise<R>
  /** Worker threads that have not exited yet (0 before the first call). */
  threads(): number
  /** Resolves once every worker it has let go of (aborted, idle, disposed) has exited. */
  settled(): Promise<void>
  /** Terminates its workers; resolves once they have all exited. A later call starts a fresh pool. */
  dispose(): Promise<void>
}

const ignore = () => {}

/** Declares an isolated function. No thread starts until the first call. Throws a `TypeError` at once when `module` is not absolute. */
export function isolatedFunction<A = unknown, R = unknown>(options: IsolatedFunctionOptions): IsolatedFunction<A, R> {
  const href = moduleHref(options.module, options.label ?? 'isolated function')
  const name = options.export ?? 'default'
  const pool = new IsolatePool(options.pool)
  return {
    async run(args, signal, progress = ignore) {
      const reply = await pool.run({ module: href, export: name, args }, signal, progress)
      if (reply.ok) return reply.value as R
      throw rebuild(reply.error)
    },
    threads: () => pool.threads(),
    settled: () => pool.settled(),
    dispose: () => pool.dispose(),
  }
}

/** The module's `file:` URL; anything relative would resolve against the worker, not the caller. */
function moduleHref(module: URL | string, label: string): string {
  const href = module instanceof URL ? module.href
    : module.startsWith('file:') ? new URL(module).href
      : isAbsolute(module) ? pathToFileURL(module).href : undefined
  if (!href?.startsWith('file:')) {
    throw new TypeError(`${label}: module must be a file: URL or an absolute path, got "${String(module)}"; ` +
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
