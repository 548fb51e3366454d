/**
 * "Is tool X denied whatever its arguments?" — the question a host asks before it lists a tool
 * to someone who cannot see the policy (`rein mcp serve` leaves such tools out of `tools/list`).
 * The answer is yes only when the policy's verdict is a deny for every possible call: the last
 * rule for the tool with no `when` is a deny (or there is none and `default` is deny), and every
 * rule for it after that one is a deny as well. A later allow or ask with a `when` might match
 * some arguments, so its tool stays listed. The answer errs towards listing: a tool listed
 * wrongly is still refused at its call; a tool hidden wrongly could never be called.
 *
 * Provided as the cordis service `ctx.toolPolicy` (a plain object a host reads by name, so it
 * need not import this plugin): `ctx.toolPolicy.unconditionalDeny(name)`.
 */
import { compileGlob, type Glob } from '@rein/shell-reader'
import { createShellReader } from './matchers.js'
import { compilePermissions } from './permissions.js'
import { describeRule, type PermissionGuardConfig, type RuleConfig } from './rules.js'

/** What a host may ask a policy about a tool, without arguments. */
export interface ToolPolicyView {
  /** The deny reason when every call of tool `name` is denied whatever its arguments; otherwise undefined. */
  unconditionalDeny(name: string): string | undefined
}

/** The view of a validated config (the rule globs compiled once). Pure; never throws for a config that loaded. */
export function toolPolicyView(config: PermissionGuardConfig): ToolPolicyView {
  const rules: [RuleConfig, Glob][] = config.rules.map((rule) => [rule, compileGlob(rule.tool)])
  const permissions = compilePermissions(config.permissions, config.cwd ?? process.cwd(), createShellReader(1))
  return {
    unconditionalDeny(name) {
      // A permissions deny without a specifier is final; any other entry may allow some calls.
      const denied = permissions.unconditionalDeny(name)
      if (denied !== undefined) return denied
      for (let index = rules.length - 1; index >= 0; index--) {
        const [rule, glob] = rules[index]
        if (!glob.test(name)) continue
        const conditional = rule.when !== undefined && Object.keys(rule.when).length > 0
        if (rule.action !== 'deny') return undefined
        if (!conditional) return rule.reason ?? `tool "${name}" is denied by ${describeRule(rule, index)}`
      }
      return config.default === 'deny' && !permissions.names(name) ? `tool "${name}" is denied: no rule matches it and the default is deny` : undefined
    },
  }
}
