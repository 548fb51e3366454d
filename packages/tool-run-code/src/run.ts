/**
 * The host side of one run on one sandbox thread. It forwards the code's sub-calls and their
 * replies, and stops the run when `signal` aborts or the deadline passes: the stop flag first
 * (the interrupt handler sees it even in a busy loop), then a `stop` message (for code idle
 * awaiting a sub-call), then, `STOP_GRACE_MS` later, termination of the thread. Guarantees:
 * it settles exactly once, and never later than the grace after a stop.
 */
import type { Fixed, FromSandbox, Limits, Outcome, ToSandbox } from './protocol.js'
import type { SandboxThread } from './thread.js'

/** How long a stopped run has to report before its thread is terminated. */
export const STOP_GRACE_MS = 250

/** Why the host stopped a run. */
export type Stop = 'abort' | 'deadline'

/** How a run ended. `healthy`: the thread may take another run. */
export interface Ended {
  outcome: Outcome
  healthy: boolean
  stoppedBy?: Stop
}

export interface RunRequest {
  code: string
  tools: string[]
  limits: Limits
  fixed: Fixed
}

/** Runs `request` on `thread`. `call(name, args)` answers a sub-call with its reply envelope and never rejects. */
export function runOnThread(thread: SandboxThread, request: RunRequest,
  call: (name: string, args: string) => Promise<string>, signal: AbortSignal): Promise<Ended> {
  return new Promise((resolve) => {
    const post = (message: ToSandbox) => thread.worker.postMessage(message)
    let stoppedBy: Stop | undefined
    let settled = false
    let kill: ReturnType<typeof setTimeout> | undefined
    let unwatch = () => {}

    const finish = (ended: Ended) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      clearTimeout(kill)
      signal.removeEventListener('abort', onAbort)
      thread.worker.off('message', onMessage)
      unwatch()
      resolve(ended)
    }
    const stop = (why: Stop) => {
      if (settled || stoppedBy) return
      stoppedBy = why
      thread.requestStop()
      post({ type: 'stop' })
      kill = setTimeout(() => void thread.terminate(), STOP_GRACE_MS)
    }
    const onAbort = () => stop('abort')
    const onMessage = (message: FromSandbox) => {
      switch (message.type) {
        case 'call':
          void call(message.name, message.args).then((envelope) => {
            if (!settled) post({ type: 'reply', id: message.id, envelope })
          })
          return
        case 'done':
          finish({ outcome: message.outcome, healthy: message.healthy, stoppedBy })
          return
        case 'ready':
          return
        default: {
          const unknown: never = message
          throw new TypeError(`unknown message from a sandbox thread: ${JSON.stringify(unknown)}`)
        }
      }
    }

    const deadline = setTimeout(() => stop('deadline'), Math.max(0, request.limits.deadline - Date.now()))
    thread.worker.on('message', onMessage)
    // Not `thread.exited.then(...)`: that promise lives as long as the thread, and would keep
    // every run it served (its code, its sub-calls) alive with it.
    unwatch = thread.onExit(() => finish({
      outcome: { kind: 'crashed', message: thread.failure ?? 'the sandbox thread exited' },
      healthy: false,
      stoppedBy,
    }))
    signal.addEventListener('abort', onAbort, { once: true })
    thread.clearStop()
    post({ type: 'run', ...request })
    if (signal.aborted) onAbort()
  })
}
