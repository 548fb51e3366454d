/**
 * The policy: an ordered rule list compiled once, then evaluated per call as a pure function of
 * the tool name and its arguments. The LAST matching rule wins; `default` applies when none
 * matches. Restrictive rules (deny, ask) match generously; a permissive rule (allow) never
 * matches an argument that climbs out with a `..` path segment, so `src/*` cannot allow
 * `src/../.git/hooks/x` (argument matchers: `matchers.ts`). Every deny and ask carries a reason
 * a person (or model) can read.
 */
export { PolicyError } from './matchers.js'
import { compileGlobAt, compileMatcher, createShellReader, describeMatcher, PolicyError, testMatcher, type Matcher, type MatcherConfig } from './matchers.js'

/** What a rule (or the default) decides. */
export type Action = 'allow' | 'deny' | 'ask'

/** One rule as written in the config. */
export interface RuleConfig {
  /** Glob over the tool name. */
  tool: string
  action: Action
  /** Shown instead of the generated text when this rule denies or asks. */
  reason?: string
  /** Argument name -> matcher (a glob, or `{ shell: glob }`); every entry must match. */
  when?: Record<string, MatcherConfig>
}

/** The plugin's config after validation. */
export interface PermissionGuardConfig {
  default: Action
  rules: RuleConfig[]
}

/** The outcome for one call. `rule` is the index of the deciding rule, absent for the default. */
export type Verdict =
  | { action: 'allow', rule?: number }
  | { action: 'deny', rule?: number, reason: string }
  | { action: 'ask', rule?: number, reason: string }

/** A compiled policy. */
export type Policy = (name: string, args: Readonly<Record<string, unknown>>) => Verdict

interface CompiledRule {
  index: number
  rule: RuleConfig
  tool: RegExp
  when: [name: string, matcher: Matcher][]
}

/** Compiles a validated config. Throws `PolicyError` naming the entry for a bad matcher or an empty field. */
export function compilePolicy(config: PermissionGuardConfig): Policy {
  const rules = config.rules.map((rule, index) => compileRule(rule, index))
  const fallback = config.default
  const read = createShellReader()
  return (name, args) => {
    for (let i = rules.length - 1; i >= 0; i--) {
      const notes = matches(rules[i], name, args, read)
      if (notes) return verdictOf(rules[i], name, notes)
    }
    switch (fallback) {
      case 'allow': return { action: 'allow' }
      case 'deny': return { action: 'deny', reason: `tool "${name}" is denied: no rule matches it and the default is deny` }
      case 'ask': return { action: 'ask', reason: `no rule matches tool "${name}" and the default is ask` }
    }
  }
}

/** How a rule is named in messages: `rules[2] (tool "bash", command shell "rm *")`. */
export function describeRule(rule: RuleConfig, index: number): string {
  const parts = [`tool ${JSON.stringify(rule.tool)}`]
  for (const [arg, matcher] of Object.entries(rule.when ?? {})) parts.push(`${arg} ${describeMatcher(matcher)}`)
  return `rules[${index}] (${parts.join(', ')})`
}

function compileRule(rule: RuleConfig, index: number): CompiledRule {
  const at = (...path: (string | number)[]) => ['rules', index, ...path]
  if (rule.tool === '') throw new PolicyError(at('tool'), 'must be a non-empty glob such as "read_*"')
  if (rule.reason === '') throw new PolicyError(at('reason'), 'must not be empty (leave it out to use the generated text)')
  return {
    index,
    rule,
    tool: compileGlobAt(rule.tool, at('tool')),
    when: Object.entries(rule.when ?? {}).map(([arg, matcher]) => [arg, compileMatcher(matcher, at('when', arg))]),
  }
}

/** The notes of a matching rule (often none), or undefined when it does not match. */
function matches(compiled: CompiledRule, name: string, args: Readonly<Record<string, unknown>>, read: ReturnType<typeof createShellReader>): string[] | undefined {
  if (!compiled.tool.test(name)) return undefined
  const permissive = compiled.rule.action === 'allow'
  const notes: string[] = []
  for (const [arg, matcher] of compiled.when) {
    const match = testMatcher(matcher, Object.hasOwn(args, arg) ? args[arg] : undefined, permissive, read)
    if (!match.matched) return undefined
    if (match.note) notes.push(match.note)
  }
  return notes
}

function verdictOf({ rule, index }: CompiledRule, name: string, notes: string[]): Verdict {
  const explain = (text: string) => (notes.length ? `${text}: ${notes.join('; ')}` : text)
  switch (rule.action) {
    case 'allow': return { action: 'allow', rule: index }
    case 'deny': return { action: 'deny', rule: index, reason: explain(rule.reason ?? `tool "${name}" is denied by ${describeRule(rule, index)}`) }
    case 'ask': return { action: 'ask', rule: index, reason: explain(rule.reason ?? `approval required by ${describeRule(rule, index)}`) }
  }
}
