/**
 * The plugin's sandbox threads. A run takes a warm idle thread or starts one; afterwards a
 * thread that came through clean is kept (at most `KEEP_IDLE`, each for `IDLE_MS`) and any
 * other is terminated, so a crashed or stopped sandbox never serves another run. Nothing is
 * global: each plugin instance has its own pool, and `dispose()` ends every thread it started.
 */
import { CodedError } from '@rein/kernel'
import { SANDBOX_FAILED } from './codes.js'
import { SandboxThread, type ThreadOptions } from './thread.js'

/** Idle threads kept warm for the next run. */
const KEEP_IDLE = 2
/** An idle thread is ended after this long unused. */
const IDLE_MS = 30_000

interface Idle {
  thread: SandboxThread
  timer: ReturnType<typeof setTimeout>
}

export class SandboxPool {
  readonly #options: ThreadOptions
  readonly #idle: Idle[] = []
  readonly #live = new Set<SandboxThread>()
  #disposed = false

  constructor(options: ThreadOptions) {
    this.#options = options
  }

  /** A thread ready for a run. Rejects with `signal.reason` when `signal` aborts while it starts. */
  async acquire(signal: AbortSignal): Promise<SandboxThread> {
    if (this.#disposed) throw new CodedError('run_code was disposed with its plugin', SANDBOX_FAILED)
    let idle: Idle | undefined
    while ((idle = this.#idle.pop())) {
      clearTimeout(idle.timer)
      if (idle.thread.alive) return this.#busy(idle.thread)
    }
    const thread = new SandboxThread(this.#options)
    this.#live.add(thread)
    thread.exited.then(() => this.#live.delete(thread))
    this.#busy(thread)
    const aborted = new Promise<never>((_, reject) => {
      const onAbort = () => reject(signal.reason)
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
      const forget = () => signal.removeEventListener('abort', onAbort)
      thread.ready.then(forget, forget)
    })
    try {
      await Promise.race([thread.ready, aborted])
      return thread
    } catch (error) {
      void thread.terminate()
      throw error
    }
  }

  /** Gives a thread back after a run: kept warm when `healthy`, else ended. */
  release(thread: SandboxThread, healthy: boolean): void {
    if (!healthy || !thread.alive || this.#disposed || this.#idle.length >= KEEP_IDLE) {
      void thread.terminate()
      return
    }
    thread.hold(false)
    const timer = setTimeout(() => {
      const at = this.#idle.findIndex((entry) => entry.thread === thread)
      if (at >= 0) this.#idle.splice(at, 1)
      void thread.terminate()
    }, IDLE_MS)
    timer.unref()
    this.#idle.push({ thread, timer })
  }

  /** Threads started and not yet exited (busy, idle or being terminated). */
  get threads(): number {
    return this.#live.size
  }

  /** Ends every thread; resolves once all have exited. Later `acquire` calls fail. */
  async dispose(): Promise<void> {
    this.#disposed = true
    for (const { timer } of this.#idle.splice(0)) clearTimeout(timer)
    await Promise.all([...this.#live].map((thread) => thread.terminate()))
  }

  #busy(thread: SandboxThread): SandboxThread {
    thread.hold(true)
    return thread
  }
}
