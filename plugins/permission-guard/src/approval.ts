/**
 * The approval service behind `ctx.approval`. Requests are answered one at a time, in the
 * order they arrive (the scheduler starts calls, and so their pre-execute, in model order).
 * An "allow-session" answer remembers the request's keys (what it asked about: an asking rule,
 * or an exact call the default asked about); a sibling queued behind it or a later call passes
 * without asking only when every one of its own keys is remembered. With no asker every request
 * is denied; a call whose signal aborts stops waiting and is denied.
 */
import type { ApprovalAnswer, ApprovalRequest, ApprovalService } from '@rein/kernel'

export type { ApprovalAnswer, ApprovalRequest }

/**
 * Asks a person (or a test) about one call. Called one request at a time; may watch
 * `request.exec.signal` to stop asking when the call is aborted.
 */
export type Ask = (request: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>

export interface ApprovalOptions {
  /** The asker to use for a request, looked up when its turn comes; undefined means deny. */
  asker: () => Ask | undefined
  /** What an "allow-session" answer to a request covers; a request is covered when all its keys are remembered. */
  keysOf: (request: ApprovalRequest) => readonly string[]
  /** Reports, once, that requests are denied because no asker is configured. */
  warn: (message: string) => void
}

const ANSWERS: readonly unknown[] = ['allow-once', 'allow-session', 'deny'] satisfies ApprovalAnswer[]

/** Creates the service. Its state (the queue, the session allowances) belongs to this instance only. */
export function createApproval(options: ApprovalOptions): ApprovalService {
  const session = new Set<string>()
  let tail: Promise<unknown> = Promise.resolve()
  let warned = false

  const decide = async (request: ApprovalRequest): Promise<ApprovalAnswer> => {
    const keys = options.keysOf(request)
    if (keys.length > 0 && keys.every((key) => session.has(key))) return 'allow-session'
    const { signal } = request.exec
    if (signal.aborted) return 'deny'
    const ask = options.asker()
    if (!ask) {
      if (!warned) options.warn('a call needs approval but no asker is configured, so it is denied (pass `ask` to createPermissionGuard or provide ctx.approvalPrompt)')
      warned = true
      return 'deny'
    }
    const reply = await untilAborted(Promise.resolve().then(() => ask(request)), signal)
    if (!ANSWERS.includes(reply)) {
      throw new Error(`the asker answered ${JSON.stringify(reply)}; expected "allow-once", "allow-session" or "deny"`)
    }
    if (reply === 'allow-session') keys.forEach((key) => session.add(key))
    return reply
  }

  return {
    request(request) {
      const turn = tail.then(() => decide(request))
      tail = turn.catch(() => undefined)
      return turn
    },
  }
}

/** The asker's reply, or 'deny' as soon as the call's signal aborts. */
function untilAborted(reply: Promise<ApprovalAnswer>, signal: AbortSignal): Promise<ApprovalAnswer> {
  let onAbort!: () => void
  const aborted = new Promise<ApprovalAnswer>((resolve) => {
    onAbort = () => resolve('deny')
    signal.addEventListener('abort', onAbort, { once: true })
  })
  return Promise.race([reply, aborted]).finally(() => signal.removeEventListener('abort', onAbort))
}
