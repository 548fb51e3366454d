/**
 * The policy: an ordered rule list compiled once, then evaluated per call as a pure function of
 * the tool name and its arguments. The LAST matching rule wins; `default` applies when none
 * matches. Restrictive rules (deny, ask) match generously; a permissive rule (allow) never
 * matches an argument that climbs out with a `..` path segment, so `src/*` cannot allow
 * `src/../.git/hooks/x`. Every deny and ask carries a reason a person (or model) can read.
 */
import { compileGlob, GlobError } from './glob.js'

/** What a rule (or the default) decides. */
export type Action = 'allow' | 'deny' | 'ask'

/** One rule as written in the config. */
export interface RuleConfig {
  /** Glob over the tool name. */
  tool: string
  action: Action
  /** Shown instead of the generated text when this rule denies or asks. */
  reason?: string
  /** Argument name -> glob; every entry must match for the rule to match. */
  when?: Record<string, string>
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

/** A config entry that cannot be compiled; `path` names it (`['rules', 2, 'when', 'path']`). */
export class PolicyError extends Error {
  constructor(readonly path: (string | number)[], message: string) {
    super(message)
    this.name = 'PolicyError'
  }
}

/** A compiled policy. */
export type Policy = (name: string, args: Readonly<Record<string, unknown>>) => Verdict

interface CompiledRule {
  index: number
  rule: RuleConfig
  tool: RegExp
  when: [name: string, glob: RegExp][]
}

/** A `..` path segment, in plain text or inside JSON text (`["../x"]`). */
const TRAVERSAL = /(^|[\\/"])\.\.([\\/"]|$)/

/** Compiles a validated config. Throws `PolicyError` naming the entry for a bad glob or an empty field. */
export function compilePolicy(config: PermissionGuardConfig): Policy {
  const rules = config.rules.map((rule, index) => compileRule(rule, index))
  const fallback = config.default
  return (name, args) => {
    for (let i = rules.length - 1; i >= 0; i--) {
      if (matches(rules[i], name, args)) return verdictOf(rules[i], name)
    }
    switch (fallback) {
      case 'allow': return { action: 'allow' }
      case 'deny': return { action: 'deny', reason: `tool "${name}" is denied: no rule matches it and the default is deny` }
      case 'ask': return { action: 'ask', reason: `no rule matches tool "${name}" and the default is ask` }
    }
  }
}

/** How a rule is named in messages: `rules[2] (tool "bash", command "rm *")`. */
export function describeRule(rule: RuleConfig, index: number): string {
  const parts = [`tool ${JSON.stringify(rule.tool)}`]
  for (const [arg, glob] of Object.entries(rule.when ?? {})) parts.push(`${arg} ${JSON.stringify(glob)}`)
  return `rules[${index}] (${parts.join(', ')})`
}

/**
 * The text an argument matcher tests: a string as is, anything else as its JSON text
 * (`true`, `42`, `["a","b"]`); a missing argument matches nothing.
 */
export function argumentText(value: unknown): string | undefined {
  if (value === undefined) return undefined
  return typeof value === 'string' ? value : JSON.stringify(value)
}

function compileRule(rule: RuleConfig, index: number): CompiledRule {
  const at = (...path: (string | number)[]) => ['rules', index, ...path]
  if (rule.tool === '') throw new PolicyError(at('tool'), 'must be a non-empty glob such as "read_*"')
  if (rule.reason === '') throw new PolicyError(at('reason'), 'must not be empty (leave it out to use the generated text)')
  return {
    index,
    rule,
    tool: glob(rule.tool, at('tool')),
    when: Object.entries(rule.when ?? {}).map(([arg, text]) => [arg, glob(text, at('when', arg))]),
  }
}

function glob(text: string, path: (string | number)[]): RegExp {
  try {
    return compileGlob(text)
  } catch (error) {
    if (error instanceof GlobError) throw new PolicyError(path, `${JSON.stringify(text)} ${error.message}`)
    throw error
  }
}

function matches(compiled: CompiledRule, name: string, args: Readonly<Record<string, unknown>>): boolean {
  if (!compiled.tool.test(name)) return false
  const permissive = compiled.rule.action === 'allow'
  return compiled.when.every(([arg, pattern]) => {
    const text = argumentText(Object.hasOwn(args, arg) ? args[arg] : undefined)
    if (text === undefined) return false
    if (permissive && TRAVERSAL.test(text)) return false
    return pattern.test(text)
  })
}

function verdictOf({ rule, index }: CompiledRule, name: string): Verdict {
  switch (rule.action) {
    case 'allow': return { action: 'allow', rule: index }
    case 'deny': return { action: 'deny', rule: index, reason: rule.reason ?? `tool "${name}" is denied by ${describeRule(rule, index)}` }
    case 'ask': return { action: 'ask', rule: index, reason: rule.reason ?? `approval required by ${describeRule(rule, index)}` }
  }
}
