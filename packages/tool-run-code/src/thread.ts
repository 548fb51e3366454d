/**
 * One sandbox thread: a worker running `worker.mjs`, and the shared stop flag its interrupt
 * handler reads. `ready` settles once QuickJS is loaded (or the thread failed first);
 * `exited` once the thread is gone, however it went; `onExit` tells the run on it, and forgets
 * that run once it ended, so a thread that serves many runs keeps none of them alive.
 * `terminate()` ends it even while the code is in a busy loop. An idle thread is unreferenced,
 * so it never keeps the process alive.
 */
import { Worker } from 'node:worker_threads'
import { CodedError } from '@rein/kernel'
import { SANDBOX_FAILED } from './codes.js'
import type { FromSandbox } from './protocol.js'

/** The thread entry (`worker.mjs` beside this file, in `src/` and in `dist/src/` alike). */
const ENTRY = new URL('./worker.mjs', import.meta.url)

/** What every thread of a pool is started with. */
export interface ThreadOptions {
  /** The thread's V8 stack, in MB: QuickJS's recursion runs on it as WebAssembly frames. */
  stackSizeMb: number
  /** How far the thread's WebAssembly memory may grow beyond its 16 MiB base. */
  memoryLimitBytes: number
}

export class SandboxThread {
  readonly worker: Worker
  readonly ready: Promise<void>
  readonly exited: Promise<void>
  /** Why the thread ended or could not start, once it has. */
  failure: string | undefined
  readonly #stop: Int32Array
  #alive = true
  #onExit: (() => void) | undefined

  /** Starts a thread. */
  constructor(options: ThreadOptions) {
    const shared = new SharedArrayBuffer(4)
    this.#stop = new Int32Array(shared)
    this.worker = new Worker(ENTRY, {
      workerData: { stop: shared, memoryLimitBytes: options.memoryLimitBytes },
      resourceLimits: { stackSizeMb: options.stackSizeMb },
    })
    this.worker.on('error', (error) => { this.failure ??= `${error.name}: ${error.message}` })
    this.exited = new Promise((resolve) => {
      this.worker.once('exit', (code) => {
        this.#alive = false
        this.failure ??= `the sandbox thread exited (code ${code})`
        resolve()
        this.#onExit?.()
      })
    })
    this.ready = new Promise((resolve, reject) => {
      const onMessage = (message: FromSandbox) => {
        if (message.type !== 'ready') return
        this.worker.off('message', onMessage)
        resolve()
      }
      this.worker.on('message', onMessage)
      this.exited.then(() => reject(new CodedError(`the sandbox thread failed to start: ${this.failure}`, SANDBOX_FAILED)))
    })
    this.ready.catch(() => {})
  }

  /** Whether the thread is still running. */
  get alive(): boolean {
    return this.#alive
  }

  /**
   * Calls `listener` when the thread exits (soon, if it already has), until the returned
   * function is called. One listener at a time: the run on the thread; a later one replaces it.
   */
  onExit(listener: () => void): () => void {
    if (!this.#alive) {
      queueMicrotask(listener)
      return () => {}
    }
    this.#onExit = listener
    return () => {
      if (this.#onExit === listener) this.#onExit = undefined
    }
  }

  /** Raises the stop flag: the code is interrupted at its next check, busy or not. */
  requestStop(): void {
    Atomics.store(this.#stop, 0, 1)
  }

  /** Lowers the stop flag before a new run. */
  clearStop(): void {
    Atomics.store(this.#stop, 0, 0)
  }

  /** Ends the thread; resolves once it is gone. */
  async terminate(): Promise<void> {
    if (this.#alive) await this.worker.terminate()
    await this.exited
  }

  /** Keeps the process alive while a run uses the thread (`true`), or not while it is idle. */
  hold(busy: boolean): void {
    if (busy) this.worker.ref()
    else this.worker.unref()
  }
}
