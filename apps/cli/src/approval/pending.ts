/**
 * How the CLI shows calls waiting for approval, wherever they come from (a run that parked,
 * `rein approvals`, `rein submit`): per request its id, call, tool, reason, arguments (compact
 * JSON, clipped) and times, then the `rein approve` line that answers it. Output only.
 */
import type { ParkedCall, PendingApproval, RunOutcome } from '@rein/agent'
import { println, type Output } from '../io.js'
import { clip } from '../progress/format.js'
import { safeLine } from '../terminal-text.js'
import { shellWord } from './session-source.js'

/**
 * The calls a run left waiting for approval: every one of an `awaiting-approval` run, or those
 * an interrupt left parked; undefined when the run left none.
 */
export function waitingCalls(outcome: RunOutcome): readonly ParkedCall[] | undefined {
  if (outcome.kind === 'awaiting-approval') return outcome.approvals ?? []
  return outcome.approvals !== undefined && outcome.approvals.length > 0 ? outcome.approvals : undefined
}

/** A request as shown: what a run's outcome lists, plus the times `pendingApprovals` knows. */
export type ShownRequest = ParkedCall & Partial<Pick<PendingApproval, 'requestedAt' | 'expiresAt' | 'expired'>>

/** The lines of `requests`, each followed by the command that answers it (`flags` name the session). */
export function requestLines(requests: readonly ShownRequest[], flags: readonly string[], width = 100): string[] {
  const where = flags.map((flag) => shellWord(safeLine(flag))).join(' ')
  return requests.flatMap((request) => {
    const times = [
      request.requestedAt === undefined ? '' : `asked ${new Date(request.requestedAt).toISOString()}`,
      request.expiresAt === undefined ? '' : `${request.expired ? 'expired' : 'expires'} ${new Date(request.expiresAt).toISOString()}`,
    ].filter(Boolean).join(', ')
    // Every field below comes from the session file: shown with its control characters escaped.
    const id = safeLine(request.id)
    return [
      `${id}  ${safeLine(JSON.stringify(request.tool))} (call ${safeLine(request.callId)})${request.reason ? `: ${safeLine(request.reason)}` : ''}`,
      clip(`    arguments: ${safeLine(JSON.stringify(request.arguments) ?? String(request.arguments))}`, width),
      ...(times ? [`    ${times}`] : []),
      request.expired
        ? '    it can no longer be answered; the call is denied when the session continues'
        : `    answer: rein approve ${shellWord(id)}${where ? ` ${where}` : ''}   (add --deny to refuse, --for-session to allow it for the session)`,
    ]
  })
}

/** Prints `requests` to `out` under a heading. */
export function printRequests(out: Output, heading: string, requests: readonly ShownRequest[], flags: readonly string[]): void {
  println(out, heading)
  for (const line of requestLines(requests, flags, Math.max(40, (out.columns ?? 100) - 1))) println(out, `  ${line}`)
}

/** A request as `--json` prints it. */
export function requestJson(request: ShownRequest) {
  return {
    id: request.id, callId: request.callId, tool: request.tool, arguments: request.arguments,
    reason: request.reason ?? null,
    requestedAt: request.requestedAt === undefined ? null : new Date(request.requestedAt).toISOString(),
    expiresAt: request.expiresAt === undefined ? null : new Date(request.expiresAt).toISOString(),
    expired: request.expired ?? false,
  }
}
