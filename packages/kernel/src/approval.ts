/**
 * The approval contract (DESIGN.md §2), in one place for everyone who speaks it. The kernel
 * asks `ctx.approval` about an `ask` decision; a policy plugin (permission-guard) provides that
 * service and, to reach a person, asks `ctx.approvalPrompt`, which a host (the CLI, a UI, a
 * test) provides. With no `ctx.approval`, or one that throws, an ask is a deny.
 */
import type { ToolExec } from '@rein/types'

/** The answers of the approval contract. */
export type ApprovalAnswer = 'allow-once' | 'allow-session' | 'deny'

/** One call that needs approval, and why (the deciding rule's reason). */
export interface ApprovalRequest {
  exec: ToolExec
  reason?: string
}

/** `ctx.approval`: answers the kernel's asks. An abort while a request is pending wins over its answer. */
export interface ApprovalService {
  request(request: ApprovalRequest): Promise<ApprovalAnswer>
}

/** `ctx.approvalPrompt`: a person-facing asker; a policy's approval service asks it one request at a time. */
export interface ApprovalPrompt {
  ask(request: ApprovalRequest): ApprovalAnswer | Promise<ApprovalAnswer>
}
