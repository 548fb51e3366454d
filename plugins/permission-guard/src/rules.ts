/**
 * The policy: an ordered rule list compiled once, then evaluated per call as a pure function of
 * the tool name and its arguments. The LAST matching rule wins; `default` applies when none
 * matches. Restrictive rules (deny, ask) match generously; a permissive rule (allow) never
 * matches an argument that climbs out with a `..` path segment, so `src/*` cannot allow
 * `src/../.git/hooks/x` (argument matchers: `matchers.ts`). Every deny and ask carries a reason
 * a person (or model) can read.
 *
 * Command by command: when an argument read by a shell matcher holds several simple commands
 * (`git push x || rm y`), the rule list is evaluated once per command. In each evaluation one
 * command is "in focus": the shell matchers of deny and ask rules on its argument test that
 * command alone (an unreadable line, an unknown command name, an output redirection or an
 * assignment anywhere in the line still counts, as it does for the whole line); an allow rule
 * still tests the whole line, matching only when every command matches it; the last matching
 * rule, else the default, gives that command's verdict. The call gets the most severe of them,
 * deny > ask > allow, with the rule and reason of the first command that severe (a rule's before
 * the default's). So an ask can never undo a deny within one line, and an allow is never stitched together from several rules. A line of one command, an unreadable line and a call that no shell matcher reads
 * are evaluated once, as a whole; so is any call whose deciding rules never test a line of
 * several commands (the common case pays nothing extra).
 *
 * "Allow for the session" covers what was asked about (`Policy.sessionKeys`): each asking rule
 * by its index, and an ask from the default (or from a rule that matched only because the line
 * could not be read or named a command only at run time) by the exact call — the arguments, with
 * a command in focus standing for its line when the line is otherwise plain.
 */
export { PolicyError } from './matchers.js'
import type { Glob } from '@rein/shell-reader'
import {
  compileGlobAt, compileMatcher, createShellReader, describeMatcher, describeValue, isPlainObject, PolicyError, testMatcher,
  type Matcher, type MatcherConfig, type ShellLine, type ShellReader,
} from './matchers.js'

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

/** A call's arguments. */
type Args = Readonly<Record<string, unknown>>

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

interface CompiledRule {
  index: number
  rule: RuleConfig
  tool: Glob
  when: [name: string, matcher: Matcher][]
}

/** The rules whose tool glob matches one tool name, and the arguments their shell matchers read. */
interface ToolRules {
  rules: CompiledRule[]
  shellArgs: string[]
}

/** A command in focus: the argument it is in, its index in that argument's reading, and the line. */
interface Focus {
  arg: string
  index: number
  line: ShellLine
}

/** One evaluation of the rule list: the deciding rule (none for the default) and its notes. */
interface Decision {
  rule?: CompiledRule
  notes: string[]
  focus?: Focus
}

const SEVERITY: Record<Action, number> = { allow: 0, ask: 1, deny: 2 }
/** Keys that would not be what they seem in a `when` object (`__proto__` sets the prototype). */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype'])
/** How many tool names' rule lists are remembered. */
const TOOL_CACHE = 256

/** Compiles a validated config. Throws `PolicyError` naming the entry for a bad matcher or an empty field. */
export function compilePolicy(config: PermissionGuardConfig): Policy {
  const evaluator = new Evaluator(config.rules.map(compileRule), config.default)
  const policy = (name: string, args: Args) => evaluator.verdict(name, args)
  return Object.assign(policy, {
    sessionKeys: (name: string, args: Args) => evaluator.sessionKeys(name, args),
    argumentWarnings: (name: string, parameters: unknown) => evaluator.argumentWarnings(name, parameters),
  })
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

/** Evaluates calls against the compiled rules; holds the line cache and the per-tool rule lists. */
class Evaluator {
  private readonly read: ShellReader = createShellReader()
  private readonly byTool = new Map<string, ToolRules>()
  /** Set while evaluating when a shell matcher tested a line of several commands. */
  private multi = false
  private readonly track: ShellReader = (text) => {
    const line = this.read(text)
    if (line.texts.length > 1) this.multi = true
    return line
  }

  constructor(private readonly rules: CompiledRule[], private readonly fallback: Action) {}

  /** The call's verdict: the most severe of its decisions. */
  verdict(name: string, args: Args): Verdict {
    return this.verdictOf(mostSevere(this.decide(name, args), this.fallback), name)
  }

  /** What an "allow for the session" answer covers: the key of every asking decision. */
  sessionKeys(name: string, args: Args): string[] | undefined {
    const decisions = this.decide(name, args)
    if (this.actionOf(mostSevere(decisions, this.fallback)) !== 'ask') return undefined
    const keys = decisions.filter((decision) => this.actionOf(decision) === 'ask').map((decision) => `${name}\u0000${askKey(decision, args)}`)
    return [...new Set(keys)]
  }

  /** Rules for tool `name` that name an argument missing from its JSON Schema's `properties`, as warnings. */
  argumentWarnings(name: string, parameters: unknown): string[] {
    const properties = isPlainObject(parameters) ? parameters.properties : undefined
    if (!isPlainObject(properties)) return []
    return this.toolRules(name).rules.flatMap((compiled) => compiled.when
      .filter(([arg]) => !Object.hasOwn(properties, arg))
      .map(([arg]) => missingArgument(compiled, arg, name, Object.keys(properties))))
  }

  /**
   * One decision for the whole call or, when a tested line has several commands, one per
   * command in focus, leaving out those an allow rule decided (an allow rule tests the whole
   * line, so it decides the same for every command); when it decided them all, the whole call's.
   */
  private decide(name: string, args: Args): Decision[] {
    const tool = this.toolRules(name)
    this.multi = false
    const whole = this.once(tool.rules, args, undefined)
    const focuses = this.multi ? this.focuses(tool, args) : []
    if (focuses.length < 2) return [whole]
    const own = focuses.map((focus) => this.once(tool.rules, args, focus)).filter((decision) => decision.rule?.rule.action !== 'allow')
    return own.length > 0 ? own : [whole]
  }

  /** The last matching rule (else the default), with `focus` on one command. */
  private once(rules: CompiledRule[], args: Args, focus: Focus | undefined): Decision {
    for (let i = rules.length - 1; i >= 0; i--) {
      const notes = this.matches(rules[i], args, focus)
      if (notes) return { rule: rules[i], notes, focus }
    }
    return { notes: [], focus }
  }

  /** The notes of a matching rule (often none), or undefined when it does not match. */
  private matches(compiled: CompiledRule, args: Args, focus: Focus | undefined): string[] | undefined {
    const permissive = compiled.rule.action === 'allow'
    const notes: string[] = []
    for (const [arg, matcher] of compiled.when) {
      const value = Object.hasOwn(args, arg) ? args[arg] : undefined
      // An allow rule always tests the whole line: it matches only when every command does.
      const inFocus = !permissive && focus?.arg === arg ? focus.index : undefined
      const match = testMatcher(matcher, value, permissive, this.track, inFocus)
      if (!match.matched) return undefined
      if (match.note) notes.push(match.note)
    }
    return notes
  }

  /** Every command of every argument the tool's shell matchers read. */
  private focuses(tool: ToolRules, args: Args): Focus[] {
    const focuses: Focus[] = []
    for (const arg of tool.shellArgs) {
      const value = Object.hasOwn(args, arg) ? args[arg] : undefined
      if (typeof value !== 'string') continue
      const line = this.read(value)
      for (let index = 0; index < line.texts.length; index++) focuses.push({ arg, index, line })
    }
    return focuses
  }

  /** The rules that apply to tool `name`, remembered for the last `TOOL_CACHE` names. */
  private toolRules(name: string): ToolRules {
    let tool = this.byTool.get(name)
    if (tool === undefined) {
      const rules = this.rules.filter((rule) => rule.tool.test(name))
      const shellArgs = new Set(rules.flatMap((rule) => rule.when.filter(([, m]) => m.kind === 'shell').map(([arg]) => arg)))
      tool = { rules, shellArgs: [...shellArgs] }
      if (this.byTool.size >= TOOL_CACHE) this.byTool.delete(this.byTool.keys().next().value as string)
      this.byTool.set(name, tool)
    }
    return tool
  }

  private actionOf(decision: Decision): Action {
    return decision.rule?.rule.action ?? this.fallback
  }

  private verdictOf({ rule, notes }: Decision, name: string): Verdict {
    if (rule === undefined) return defaultVerdict(this.fallback, name)
    const { rule: config, index } = rule
    const explain = (text: string) => (notes.length ? `${text}: ${notes.join('; ')}` : text)
    switch (config.action) {
      case 'allow': return { action: 'allow', rule: index }
      case 'deny': return { action: 'deny', rule: index, reason: explain(config.reason ?? `tool "${name}" is denied by ${describeRule(config, index)}`) }
      case 'ask': return { action: 'ask', rule: index, reason: explain(config.reason ?? `approval required by ${describeRule(config, index)}`) }
    }
  }
}

/** The warning for a rule whose `when` names argument `arg`, which tool `name` does not declare. */
function missingArgument({ rule, index }: CompiledRule, arg: string, name: string, declared: string[]): string {
  const list = declared.map((known) => JSON.stringify(known)).join(', ') || 'none'
  return `${describeRule(rule, index)} names the argument ${JSON.stringify(arg)}, which tool ${JSON.stringify(name)} does not have `
    + `(its arguments: ${list}), so the rule never matches a call that follows the tool's schema`
}

function defaultVerdict(fallback: Action, name: string): Verdict {
  switch (fallback) {
    case 'allow': return { action: 'allow' }
    case 'deny': return { action: 'deny', reason: `tool "${name}" is denied: no rule matches it and the default is deny` }
    case 'ask': return { action: 'ask', reason: `no rule matches tool "${name}" and the default is ask` }
  }
}

/** The first of the most severe decisions (deny > ask > allow), a rule's before the default's: its reason says more. */
function mostSevere(decisions: Decision[], fallback: Action): Decision {
  const severity = (decision: Decision) => SEVERITY[decision.rule?.rule.action ?? fallback] * 2 + (decision.rule ? 1 : 0)
  return decisions.reduce((worst, decision) => (severity(decision) > severity(worst) ? decision : worst))
}

/**
 * What an ask is remembered by: the asking rule, unless it matched only because the line could
 * not be read or named a command at run time; then (and for the default) the exact call.
 */
function askKey({ rule, notes, focus }: Decision, args: Args): string {
  if (rule !== undefined && notes.length === 0) return `rule:${rule.index}`
  if (focus === undefined || !isPlain(focus.line)) return `call:${canonicalJson(args)}`
  const rest = Object.fromEntries(Object.entries(args).filter(([arg]) => arg !== focus.arg))
  const command = focus.line.reading.ok ? focus.line.reading.commands[focus.index] : undefined
  // The program as written: approving `git status` must not approve `./git status`.
  const words = command ? (command.program === undefined ? command.words : [command.program, ...command.words.slice(1)]) : []
  return `command:${JSON.stringify(focus.arg)}:${JSON.stringify(words)}:${canonicalJson(rest)}`
}

/** A line whose commands mean what they say one by one: readable, named, no file written, nothing assigned. */
function isPlain(line: ShellLine): boolean {
  return line.reading.ok && !line.reading.writes && line.unknown === undefined && !line.assigns
}

let unique = 0

/** JSON text with object keys sorted, so equal arguments give equal text; a value JSON cannot write gives a key nothing else has. */
function canonicalJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, inner: unknown) => (isPlainObject(inner) ? sortedKeys(inner) : inner)) ?? 'undefined'
  } catch {
    return `unwritable:${++unique}`
  }
}

function sortedKeys(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}
