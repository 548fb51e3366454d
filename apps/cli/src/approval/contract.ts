/**
 * The shapes the CLI answers approvals with, as `@rein/plugin-permission-guard` looks them up
 * (`ctx.approvalPrompt = { ask(request) }`, DESIGN.md §2). Declared here structurally, so the
 * CLI needs no dependency on the plugin; a harness without it simply never asks.
 */
import type { ToolExec } from '@rein/kernel'

/** The answers of the approval contract. */
export type ApprovalAnswer = 'allow-once' | 'allow-session' | 'deny'

/** One call that needs approval, and why (the deciding rule's reason). */
export interface ApprovalRequest {
  exec: ToolExec
  reason?: string
}

/** The service a host provides as `approvalPrompt`; asked one request at a time. */
export interface ApprovalPrompt {
  ask(request: ApprovalRequest): Promise<ApprovalAnswer>
}

/** How `rein run --approve` answers: at the terminal, or always the same without asking. */
export const APPROVE_MODES = ['ask', 'deny', 'allow'] as const
export type ApproveMode = typeof APPROVE_MODES[number]
