/**
 * One rule of the policy as written and as compiled, and how a rule is named in messages. The
 * compiling is in `rules.ts`; the evaluation in `verdict.ts`.
 */
import type { Glob } from '@rein/shell-reader'
import { describeMatcher, type Matcher, type MatcherConfig } from './matchers.js'
import type { Verdict } from './verdict.js'

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

/** A rule compiled: its index in the list, its tool glob and its argument matchers. */
export interface CompiledRule {
  index: number
  rule: RuleConfig
  tool: Glob
  when: [name: string, matcher: Matcher][]
}

/** The rules whose tool glob matches one tool name, and the arguments their shell matchers read. */
export interface ToolRules {
  rules: CompiledRule[]
  shellArgs: string[]
  /** The default's verdict for the tool, once asked for (only for a tool that no rule names). */
  fallback?: Verdict
}

/** A call's arguments. */
export type Args = Readonly<Record<string, unknown>>

/** How a rule is named in messages: `rules[2] (tool "bash", command shell "rm *")`. */
export function describeRule(rule: RuleConfig, index: number): string {
  const parts = [`tool ${JSON.stringify(rule.tool)}`]
  for (const [arg, matcher] of Object.entries(rule.when ?? {})) parts.push(`${arg} ${describeMatcher(matcher)}`)
  return `rules[${index}] (${parts.join(', ')})`
}
