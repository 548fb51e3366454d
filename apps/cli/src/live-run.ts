/**
 * One agent run with live progress, shared by `rein run` and `rein demo`. The first Ctrl-C
 * aborts the run through its AbortController: nothing new starts, started calls drain and
 * commit, so the session stays a valid transcript; a second Ctrl-C exits at once (130),
 * leaving the session for the next run to repair. Listeners are removed on every path.
 */
import type { RunOutcome } from '@rein/agent'
import type { Harness } from '@rein/loader'
import { waitingCalls } from './approval/pending.js'
import { ExitCodes } from './exit-codes.js'
import { exitNow, interrupts, println, type Io } from './io.js'
import { attachProgress } from './progress/reporter.js'
import type { RunStats } from './progress/stats.js'
import type { ProgressView } from './progress/view.js'
import { safeText } from './terminal-text.js'

export interface LiveRun {
  harness: Harness
  /** The task; undefined continues the session (a turn parked for approval, once answered). */
  input: string | undefined
  io: Io
  view: ProgressView
  stats: RunStats
}

/** How it ended, and the exit code that says so. */
export interface LiveRunResult {
  outcome: RunOutcome
  exitCode: number
}

/** Runs the harness's agent on `input` (or continues its session) and reports the outcome through the view. */
export async function runLive({ harness, input, io, view, stats }: LiveRun): Promise<LiveRunResult> {
  const agent = harness.agent
  const controller = new AbortController()
  let presses = 0
  const offInterrupt = interrupts(io)(() => {
    presses++
    if (presses === 1) {
      view.status('interrupted: no new calls start; waiting for the running ones to finish (Ctrl-C again to exit now)')
      controller.abort(new Error('interrupted (Ctrl-C)'))
      return
    }
    view.close()
    println(io.stderr, 'rein: exiting now; calls still running have no result yet, and the next run repairs the session')
    exitNow(io, ExitCodes.INTERRUPTED)
  })
  const detach = attachProgress(harness.ctx, view, stats)
  let outcome: RunOutcome
  try {
    outcome = await agent.run(input, { signal: controller.signal })
  } finally {
    detach()
    offInterrupt()
  }
  return { outcome, exitCode: report(outcome, io, view) }
}

function report(outcome: RunOutcome, io: Io, view: ProgressView): number {
  switch (outcome.kind) {
    case 'completed': {
      const last = outcome.messages.at(-1)
      view.answer(last?.role === 'assistant' ? last.content : '')
      return ExitCodes.OK
    }
    case 'aborted': {
      const waiting = waitingCalls(outcome)?.length ?? 0
      const parked = waiting === 0 ? '' : `; ${waiting} call${waiting === 1 ? '' : 's'} still wait${waiting === 1 ? 's' : ''} for approval`
      view.status(`aborted: every started call has its result${parked}; the session is valid and can be resumed`)
      return ExitCodes.INTERRUPTED
    }
    case 'max-turns':
      view.status('stopped: the run reached its maxTurns limit (agent.maxTurns in rein.yaml)')
      return ExitCodes.FAILURE
    case 'stopped':
      view.status(`stopped by ${outcome.stop?.tool ?? 'a tool result'}: ${outcome.stop?.message ?? 'a result asked the run to end'}`)
      return ExitCodes.FAILURE
    case 'awaiting-approval': {
      const count = outcome.approvals?.length ?? 0
      view.status(`parked: ${count} call${count === 1 ? '' : 's'} wait${count === 1 ? 's' : ''} for approval; every call that could run has its result in the session`)
      return ExitCodes.AWAITING_APPROVAL
    }
    case 'error':
      view.close()
      println(io.stderr, `rein: the run failed: ${safeText(outcome.error?.message ?? 'unknown error')}`)
      return ExitCodes.FAILURE
  }
}
