/**
 * Wires the policy into the kernel three ways: a `tools/pre-execute` handler (allow / deny /
 * ask), one guard that denies exactly when the policy's verdict is a deny (so no plugin
 * registered later can turn that deny into an allow), and the approval service `ctx.approval`
 * that answers the asks. All state lives in the plugin instance and goes with its disposal.
 */
import type { Context } from 'cordis'
import type { PreToolDecision } from '@rein/kernel'
import { createApproval, type Ask } from './approval.js'
import type { ApprovalPrompt } from '@rein/kernel'
import { Config } from './config.js'
import { compilePolicy, type PermissionGuardConfig, type Policy } from './rules.js'
import { toolPolicyView } from './unconditional.js'

/** `ctx.approvalPrompt` (declared by the kernel): who answers the asks when the plugin was loaded without an `ask` option (e.g. the CLI). */
export type { ApprovalPrompt }

export interface PermissionGuardOptions {
  /** Answers the asks. Takes precedence over `ctx.approvalPrompt`; with neither, asks are denied. */
  ask?: Ask
}

/** The plugin name, as shown by `ctx.tools.chain(...)`. */
export const name = 'permission-guard'
/** Applied after the kernel, whose `ctx.tools` it hooks into. */
export const inject = ['tools']

/** A permission-guard plugin whose asks are answered by `options.ask`. */
export function createPermissionGuard(options: PermissionGuardOptions = {}) {
  return {
    name,
    inject,
    Config,
    apply: (ctx: Context, config: PermissionGuardConfig) => applyGuard(ctx, config, options),
  }
}

/** Registers the handler, the guard and `ctx.approval` for as long as the plugin lives. */
export function applyGuard(ctx: Context, config: PermissionGuardConfig, options: PermissionGuardOptions = {}) {
  const policy = compilePolicy(config)
  const logger = ctx.logger(name)
  const checkTools = toolChecker(ctx, policy, (message) => logger.warn(message))
  checkTools()

  // Decides before anything inside it; inner handlers still run after an allow or an ask.
  // Not async: an allow (the common case) hands `next()` on without a frame of its own.
  ctx.on('tools/pre-execute', (exec, next): Promise<PreToolDecision> => {
    checkTools(exec.name)
    const verdict = policy(exec.name, exec.arguments)
    switch (verdict.action) {
      case 'deny':
        return Promise.resolve({ kind: 'deny', reason: verdict.reason })
      case 'allow':
        return next()
      case 'ask':
        return next().then((inner): PreToolDecision => inner.kind === 'deny' ? inner : { kind: 'ask', reason: verdict.reason })
    }
  })

  // Runs after every allow, whoever produced it: a policy deny stays a deny.
  ctx.tools.guard((exec) => {
    const verdict = policy(exec.name, exec.arguments)
    return verdict.action === 'deny' ? verdict.reason : undefined
  })

  ctx.set('approval', createApproval({
    asker: () => options.ask ?? (ctx.get('approvalPrompt') as ApprovalPrompt | undefined)?.ask,
    // The policy's own ask is remembered by what it asked about; another plugin's by its reason.
    keysOf: ({ exec, reason }) => policy.sessionKeys(exec.name, exec.arguments) ?? [`${exec.name}\u0000reason:${reason ?? ''}`],
    warn: (message) => logger.warn(message),
  }))
  // Hosts that list tools (rein mcp serve) hide what this policy denies whatever the arguments.
  ctx.set('toolPolicy', toolPolicyView(config))
}

/**
 * Warns, once per tool, about rules that name an argument the tool does not declare: for every
 * tool registered when the plugin is applied, and for a tool registered later at its first call
 * (the kernel has no registration event). Returns the check: all tools, or the one named.
 */
function toolChecker(ctx: Context, policy: Policy, warn: (message: string) => void): (name?: string) => void {
  const checked = new Set<string>()
  const check = (spec: { name: string, parameters: unknown }) => {
    checked.add(spec.name)
    for (const warning of policy.argumentWarnings(spec.name, spec.parameters)) warn(warning)
  }
  return (name) => {
    if (name !== undefined && checked.has(name)) return
    for (const spec of ctx.tools.specs()) {
      if (!checked.has(spec.name) && (name === undefined || spec.name === name)) check(spec)
    }
  }
}
