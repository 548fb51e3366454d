/**
 * The worker pool of one isolated tool or function. The tinypool is created on the first call
 * and destroyed by `dispose()`; every call gets a worker of its own (at most `maxThreads` at
 * once, the rest wait in order), and an abort terminates that worker, never the others. Every
 * thread the pool ever started is tracked until it has exited, so `threads()` and `settled()`
 * tell the truth about threads that are still shutting down.
 */
import { MessageChannel } from 'node:worker_threads'
import { availableParallelism } from 'node:os'
import { Tinypool, type TinypoolWorker } from 'tinypool'
import type { ProgressInfo } from '@rein/kernel'
import { Slots } from './slots.js'

/** The worker entry (`worker.mjs` beside this file, in `src/` and in `dist/src/` alike). */
const ENTRY = new URL('./worker.mjs', import.meta.url)

/** How many worker threads a tool may use, and how long an idle one is kept. */
export interface PoolOptions {
  /** At most this many calls of the tool run at once; more wait in a queue. Default: one per CPU. */
  maxThreads?: number
  /** An idle worker exits after this many ms (the next call starts a new one). Default 10 000. */
  idleTimeout?: number
}

/** What one call asks the worker to do. */
export interface IsolatedTask {
  /** The `file:` URL of the tool's ES module. */
  module: string
  export: string
  args: unknown
}

/** The worker's answer (see `worker.mjs`). */
export type IsolatedReply =
  | { ok: true, value: unknown }
  | { ok: false, error: { message: string, name?: string, code?: string } }

export class IsolatePool {
  #maxThreads: number
  #idleTimeout: number
  #slots: Slots
  #pool: Tinypool | undefined
  /** Every thread started and not yet exited, with a promise of its exit. */
  #live = new Map<TinypoolWorker, Promise<void>>()

  constructor(options: PoolOptions = {}) {
    this.#maxThreads = options.maxThreads ?? availableParallelism()
    this.#idleTimeout = options.idleTimeout ?? 10_000
    this.#slots = new Slots(this.#maxThreads)
  }

  /**
   * Runs `task` in a worker of its own. Progress reports from the worker go to `progress`
   * while the call runs. When `signal` aborts, the worker is terminated and this rejects
   * with the signal's reason (an `AbortError` when it has none).
   */
  async run(task: IsolatedTask, signal: AbortSignal, progress: (info?: ProgressInfo) => void): Promise<IsolatedReply> {
    const release = await this.#slots.acquire(signal)
    const pool = this.#pool ??= this.#create()
    const { port1, port2 } = new MessageChannel()
    port1.on('message', (info: ProgressInfo | null) => progress(info ?? undefined))
    try {
      const pending = pool.run({ ...task, port: port2 }, { signal, transferList: [port2] })
      this.#track()
      return await pending as IsolatedReply
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error
      throw error instanceof Error ? error : new Error(`the worker thread failed: ${String(error)}`)
    } finally {
      port1.close()
      release()
    }
  }

  /** Worker threads that have not exited yet, including ones being terminated. */
  threads(): number {
    this.#track()
    return this.#live.size
  }

  /** Resolves once every thread the pool has let go of (aborted, idle, disposed) has exited. */
  async settled(): Promise<void> {
    this.#track()
    const kept = new Set(this.#pool?.threads ?? [])
    await Promise.all([...this.#live].filter(([thread]) => !kept.has(thread)).map(([, exit]) => exit))
  }

  /** Terminates every worker (a running call fails) and resolves once all have exited. A later call starts afresh. */
  async dispose(): Promise<void> {
    this.#track()
    const pool = this.#pool
    this.#pool = undefined
    await pool?.destroy()
    await this.settled()
  }

  #create(): Tinypool {
    const pool = new Tinypool({
      filename: ENTRY.href,
      minThreads: 0,
      maxThreads: this.#maxThreads,
      idleTimeout: this.#idleTimeout,
    })
    // A worker that dies with no call on it is reported as a pool 'error' event, which
    // would otherwise be thrown; the next call simply gets a fresh worker.
    pool.on('error', () => {})
    return pool
  }

  /** Starts watching the exit of every thread the pool holds now. */
  #track(): void {
    for (const thread of this.#pool?.threads ?? []) {
      if (this.#live.has(thread)) continue
      this.#live.set(thread, new Promise((resolve) => thread.once('exit', () => {
        this.#live.delete(thread)
        resolve()
      })))
    }
  }
}
