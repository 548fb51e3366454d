/**
 * The approval contract (DESIGN.md §2, §7.2), in one place for everyone who speaks it. The kernel
 * asks `ctx.approval` about an `ask` decision; a policy plugin (permission-guard) provides that
 * service and, to reach a person, asks `ctx.approvalPrompt`, which a host (the CLI, a UI, a
 * test) provides. With no `ctx.approval`, or one that throws, an ask is a deny. A reply of
 * `'park'` ends the call `APPROVAL_PARKED` when its session records approvals
 * (`exec.session.approvals`: the agent's), and is a deny where nothing can keep a call waiting.
 */
import type { ToolExec } from './tool.js'

/** The answers of the approval contract. */
export type ApprovalAnswer = 'allow-once' | 'allow-session' | 'deny'

/** What an approval service or a prompt may reply: an answer, or `'park'` (nobody answers now; the call waits in its session). */
export type ApprovalReply = ApprovalAnswer | 'park'

/** One call that needs approval, and why (the deciding rule's reason). */
export interface ApprovalRequest {
  exec: ToolExec
  reason?: string
}

/** `ctx.approval`: answers the kernel's asks. An abort while a request is pending wins over its answer. */
export interface ApprovalService {
  request(request: ApprovalRequest): Promise<ApprovalReply>
}

/** `ctx.approvalPrompt`: a person-facing asker; a policy's approval service asks it one request at a time. */
export interface ApprovalPrompt {
  ask(request: ApprovalRequest): ApprovalReply | Promise<ApprovalReply>
}

/** An answer written into a session (`answerApproval` of `@rein/agent`) for one approval request. */
export interface RecordedApproval {
  /** The request's id. */
  id: string
  answer: ApprovalAnswer
  /** Who answered, as they said. */
  by?: string
  /** When (ms since the epoch). */
  at: number
}

/**
 * `exec.session.approvals`: the approvals a session records, offered by a host that can keep a
 * call waiting for a person (the agent). An approval service asks it before asking anyone.
 */
export interface SessionApprovals {
  /** What an ask no recorded answer covers should become: `'park'` (reply `'park'`) or `'ask'` (a live asker, else deny). */
  readonly mode: 'park' | 'ask'
  /**
   * The answer recorded in this session for the call of `request`, when its request was for the
   * same tool, the same canonical arguments and the same `rule` (the service's name for what
   * asked: a rule that changed asks again); else undefined. A call parked after this is bound
   * to `rule` and `request.reason`. Read-only: nothing is written.
   */
  answered(request: ApprovalRequest, rule: string): RecordedApproval | undefined
}
