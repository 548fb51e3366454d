/**
 * The approval shapes the CLI answers with come from the kernel, their one home
 * (`ctx.approvalPrompt = { ask(request) }`, asked by `@rein/plugin-permission-guard`); a harness
 * without that plugin simply never asks.
 */
export type { ApprovalAnswer, ApprovalPrompt, ApprovalReply, ApprovalRequest } from '@rein/kernel'

/** How `rein run --approve` answers: at the terminal, or always the same without asking. */
export const APPROVE_MODES = ['ask', 'deny', 'allow'] as const
export type ApproveMode = typeof APPROVE_MODES[number]
