/**
 * `@rein/plugin-permission-guard`: allow / deny / ask rules by tool-name glob and argument
 * globs (the last matching rule wins), the same deny registered as a guard so nothing later can
 * undo it, and the approval service `ctx.approval` answering asks one at a time.
 *
 *   ctx.plugin(createPermissionGuard({ ask }), { default: 'ask', rules: [{ tool: 'read_*', action: 'allow' }] })
 */
import type { Context } from 'cordis'
import { applyGuard } from './plugin.js'
import type { PermissionGuardConfig } from './rules.js'

export { name, inject, createPermissionGuard, applyGuard, type ApprovalPrompt, type PermissionGuardOptions } from './plugin.js'
export { Config, type PermissionGuardInput } from './config.js'
export { compilePolicy, describeRule } from './rules.js'
export { argumentText, PolicyError, type MatcherConfig } from './matchers.js'
export { readCommandLine, parseBash, compileGlob, GlobError, type Reading, type ShellCommand } from '@rein/shell-reader'
export type { Action, RuleConfig, PermissionGuardConfig, Policy, Verdict } from './rules.js'
export { toolPolicyView, type ToolPolicyView } from './unconditional.js'
export type { PermissionsConfig } from './permissions.js'
export { createApproval, type Ask, type ApprovalAnswer, type ApprovalRequest, type ApprovalOptions } from './approval.js'

/**
 * Which config keys hold file paths for rein.yaml's loader: only `cwd` (resolved from the config
 * file's folder). A rule's globs and permission entries are patterns matched against the
 * arguments, so `./.env` must stay `./.env` rather than be made absolute from that folder.
 */
export const configPaths: readonly string[] = ['cwd']

/** Applies the guard without an `ask` option: asks go to `ctx.approvalPrompt`, or are denied. */
export function apply(ctx: Context, config: PermissionGuardConfig) {
  applyGuard(ctx, config)
}
