/**
 * The policy: an ordered rule list compiled once, then evaluated per call as a pure function of
 * the tool name and its arguments. The LAST matching rule wins; `default` applies when none
 * matches. Restrictive rules (deny, ask) match generously; a permissive rule (allow) never
 * matches an argument that climbs out with a `..` path segment, so `src/*` cannot allow
 * `src/../.git/hooks/x` (argument matchers: `matchers.ts`). Every deny and ask carries a reason
 * a person (or model) can read. The verdict (`verdict.ts`, command by command for a line of
 * several), what an "allow for the session" covers (`session-keys.ts`) and the load-time
 * warnings about arguments a tool does not have (`argument-warnings.ts`) each have a module.
 */
export { PolicyError } from './matchers.js'
import { argumentWarnings } from './argument-warnings.js'
import { compileGlobAt, compileMatcher, createShellReader, describeValue, isPlainObject, PolicyError } from './matchers.js'
import { type Action, type Args, type CompiledRule, type RuleConfig, type ToolRules } from './rule.js'
import { combine, compilePermissions, type PermissionsConfig } from './permissions.js'
import { sessionKeys } from './session-keys.js'
import { decide, mostSevere, verdictOf, type Verdict } from './verdict.js'

export { describeRule, type Action, type RuleConfig } from './rule.js'
export type { Verdict } from './verdict.js'

/** The plugin's config after validation. */
export interface PermissionGuardConfig {
  default: Action
  rules: RuleConfig[]
  /** Claude Code's permission rules, one policy with `rules` (`permissions.ts`). */
  permissions?: PermissionsConfig
  /** The folder `./x` and `x` path rules are relative to; `process.cwd()` when absent. */
  cwd?: string
}

/** A compiled policy: the verdict for a call, and what a session-long answer to its ask covers. */
export interface Policy {
  (name: string, args: Args): Verdict
  /**
   * The keys an "allow for the session" answer to this call's ask remembers: one per asking
   * rule, and one per exact call (or command in focus) asked about by the default. A later call
   * passes unasked only when all of its keys are remembered. Undefined when the policy does not ask.
   */
  sessionKeys(name: string, args: Args): string[] | undefined
  /**
   * Warnings about rules for tool `name` that name, in `when`, an argument its JSON Schema
   * `parameters` does not declare in `properties` (none when it declares no properties).
   */
  argumentWarnings(name: string, parameters: unknown): string[]
}

/** Keys that would not be what they seem in a `when` object (`__proto__` sets the prototype). */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype'])
/** How many tool names' rule lists are remembered. */
const TOOL_CACHE = 256

/** Compiles a validated config. Throws `PolicyError` naming the entry for a bad matcher or an empty field. */
export function compilePolicy(config: PermissionGuardConfig): Policy {
  const rules = config.rules.map(compileRule)
  const fallback = config.default
  const read = createShellReader()
  const toolRules = toolRulesCache(rules)
  const permissions = compilePermissions(config.permissions, config.cwd ?? process.cwd(), read)
  const judge = (name: string, args: Args) => {
    const decisions = decide(toolRules(name), args, read)
    const rulesVerdict = verdictOf(mostSevere(decisions, fallback), fallback, name)
    return { decisions, ...combine(rulesVerdict, decisions.some((decision) => decision.rule !== undefined), permissions(name, args)) }
  }
  // A tool no rule names gets what `judge` would answer without evaluating anything: the verdict
  // of a permission entry, else the default's (made once per tool, frozen: every call shares it).
  const policy = (name: string, args: Args): Verdict => {
    const tool = toolRules(name)
    if (tool.rules.length > 0) return judge(name, args).verdict
    return permissions(name, args) ?? (tool.fallback ??= Object.freeze(verdictOf({ notes: [] }, fallback, name)))
  }
  return Object.assign(policy, {
    sessionKeys: (name: string, args: Args) => {
      const { decisions, verdict, byPermissions } = judge(name, args)
      // An ask from a permission entry is remembered as the exact call.
      if (byPermissions) return verdict.action === 'ask' ? [`${name}\u0000permissions:${JSON.stringify(args)}`] : undefined
      return sessionKeys(decisions, fallback, name, args)
    },
    argumentWarnings: (name: string, parameters: unknown) => argumentWarnings(toolRules(name), name, parameters),
  })
}

/** The rules that apply to a tool name, remembered for the last `TOOL_CACHE` names. */
function toolRulesCache(rules: CompiledRule[]): (name: string) => ToolRules {
  const byTool = new Map<string, ToolRules>()
  return (name) => {
    let tool = byTool.get(name)
    if (tool === undefined) {
      const own = rules.filter((rule) => rule.tool.test(name))
      const shellArgs = new Set(own.flatMap((rule) => rule.when.filter(([, m]) => m.kind === 'shell').map(([arg]) => arg)))
      tool = { rules: own, shellArgs: [...shellArgs] }
      if (byTool.size >= TOOL_CACHE) byTool.delete(byTool.keys().next().value as string)
      byTool.set(name, tool)
    }
    return tool
  }
}

function compileRule(rule: RuleConfig, index: number): CompiledRule {
  const at = (...path: (string | number)[]) => ['rules', index, ...path]
  if (rule.tool === '') throw new PolicyError(at('tool'), 'must be a non-empty glob such as "read_*"')
  if (rule.reason === '') throw new PolicyError(at('reason'), 'must not be empty (leave it out to use the generated text)')
  return {
    index,
    rule,
    tool: compileGlobAt(rule.tool, at('tool')),
    when: whenEntries(rule.when, at('when')).map(([arg, matcher]) => [arg, compileMatcher(matcher, [...at('when'), arg])]),
  }
}

/** The entries of a rule's `when`: it must be a plain object whose keys can name arguments. */
function whenEntries(when: unknown, path: (string | number)[]): [string, unknown][] {
  if (when === undefined) return []
  if (isPlainObject(when) && Object.keys(when).length === 0) {
    throw new PolicyError(path, 'is empty, so the rule would match every call of its tool; name the arguments it is about, or leave "when" out to mean every call')
  }
  if (!isPlainObject(when)) {
    throw new PolicyError(path, `must be an object of argument name -> matcher, such as { command: { shell: "rm *" } }; got ${describeValue(when)}`)
  }
  const reserved = Object.keys(when).find((key) => RESERVED.has(key))
  if (reserved !== undefined) {
    throw new PolicyError(path, `has the key ${JSON.stringify(reserved)}, which cannot name an argument ("__proto__", "constructor" and "prototype" are reserved); rename or remove it`)
  }
  return Object.entries(when)
}
