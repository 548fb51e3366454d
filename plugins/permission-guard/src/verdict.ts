/**
 * The verdict for one call: the LAST matching rule wins, `default` applies when none matches.
 *
 * Command by command: when an argument read by a shell matcher holds several simple commands
 * (`git push x || rm y`), the rule list is evaluated once per command. In each evaluation one
 * command is "in focus": the shell matchers of deny and ask rules on its argument test that
 * command alone (an unreadable line, an unknown command name, an output redirection or an
 * assignment anywhere in the line still counts, as it does for the whole line); an allow rule
 * still tests the whole line, matching only when every command matches it; the last matching
 * rule, else the default, gives that command's verdict. The call gets the most severe of them,
 * deny > ask > allow, with the rule and reason of the first command that severe (a rule's before
 * the default's). So an ask can never undo a deny within one line, and an allow is never
 * stitched together from several rules. A line of one command, an unreadable line and a call
 * that no shell matcher reads are evaluated once, as a whole; so is any call whose deciding
 * rules never test a line of several commands (the common case pays nothing extra).
 */
import { testMatcher, type ShellLine, type ShellReader } from './matchers.js'
import { describeRule, type Action, type Args, type CompiledRule, type ToolRules } from './rule.js'

/** The outcome for one call. `rule` is the index of the deciding rule, absent for the default. */
export type Verdict =
  | { action: 'allow', rule?: number }
  | { action: 'deny', rule?: number, reason: string }
  | { action: 'ask', rule?: number, reason: string }

/** A command in focus: the argument it is in, its index in that argument's reading, and the line. */
export interface Focus {
  arg: string
  index: number
  line: ShellLine
}

/** One evaluation of the rule list: the deciding rule (none for the default) and its notes. */
export interface Decision {
  rule?: CompiledRule
  notes: string[]
  focus?: Focus
}

/** One evaluation, and whether a shell matcher it ran tested a line of several commands. */
interface Evaluation {
  decision: Decision
  several: boolean
}

const SEVERITY: Record<Action, number> = { allow: 0, ask: 1, deny: 2 }

/**
 * One decision for the whole call or, when a tested line has several commands, one per
 * command in focus, leaving out those an allow rule decided (an allow rule tests the whole
 * line, so it decides the same for every command); when it decided them all, the whole call's.
 */
export function decide(tool: ToolRules, args: Args, read: ShellReader): Decision[] {
  const whole = once(tool.rules, args, undefined, read)
  const focuses = whole.several ? focusesOf(tool, args, read) : []
  if (focuses.length < 2) return [whole.decision]
  const own = focuses.map((focus) => once(tool.rules, args, focus, read).decision).filter((decision) => decision.rule?.rule.action !== 'allow')
  return own.length > 0 ? own : [whole.decision]
}

/** The action a decision stands for. */
export function actionOf(decision: Decision, fallback: Action): Action {
  return decision.rule?.rule.action ?? fallback
}

/** The first of the most severe decisions (deny > ask > allow), a rule's before the default's: its reason says more. */
export function mostSevere(decisions: Decision[], fallback: Action): Decision {
  const severity = (decision: Decision) => SEVERITY[actionOf(decision, fallback)] * 2 + (decision.rule ? 1 : 0)
  return decisions.reduce((worst, decision) => (severity(decision) > severity(worst) ? decision : worst))
}

/** The verdict a decision gives for tool `name`, with its reason. */
export function verdictOf({ rule, notes }: Decision, fallback: Action, name: string): Verdict {
  if (rule === undefined) return defaultVerdict(fallback, name)
  const { rule: config, index } = rule
  const explain = (text: string) => (notes.length ? `${text}: ${notes.join('; ')}` : text)
  switch (config.action) {
    case 'allow': return { action: 'allow', rule: index }
    case 'deny': return { action: 'deny', rule: index, reason: explain(config.reason ?? `tool "${name}" is denied by ${describeRule(config, index)}`) }
    case 'ask': return { action: 'ask', rule: index, reason: explain(config.reason ?? `approval required by ${describeRule(config, index)}`) }
  }
}

/** The last matching rule (else the default), with `focus` on one command. */
function once(rules: CompiledRule[], args: Args, focus: Focus | undefined, read: ShellReader): Evaluation {
  let several = false
  for (let i = rules.length - 1; i >= 0; i--) {
    const tested = matches(rules[i], args, focus, read)
    several ||= tested.several
    if (tested.notes) return { decision: { rule: rules[i], notes: tested.notes, focus }, several }
  }
  return { decision: { notes: [], focus }, several }
}

/**
 * The notes of a matching rule (often none), or undefined when it does not match; and whether
 * one of its shell matchers tested a line of several commands.
 */
function matches(compiled: CompiledRule, args: Args, focus: Focus | undefined, read: ShellReader): { notes?: string[], several: boolean } {
  const permissive = compiled.rule.action === 'allow'
  const notes: string[] = []
  let several = false
  for (const [arg, matcher] of compiled.when) {
    const value = Object.hasOwn(args, arg) ? args[arg] : undefined
    if (matcher.kind === 'shell' && typeof value === 'string') several ||= read(value).texts.length > 1
    // An allow rule always tests the whole line: it matches only when every command does.
    const inFocus = !permissive && focus?.arg === arg ? focus.index : undefined
    const match = testMatcher(matcher, value, permissive, read, inFocus)
    if (!match.matched) return { several }
    if (match.note) notes.push(match.note)
  }
  return { notes, several }
}

/** Every command of every argument the tool's shell matchers read. */
function focusesOf(tool: ToolRules, args: Args, read: ShellReader): Focus[] {
  const focuses: Focus[] = []
  for (const arg of tool.shellArgs) {
    const value = Object.hasOwn(args, arg) ? args[arg] : undefined
    if (typeof value !== 'string') continue
    const line = read(value)
    for (let index = 0; index < line.texts.length; index++) focuses.push({ arg, index, line })
  }
  return focuses
}

function defaultVerdict(fallback: Action, name: string): Verdict {
  switch (fallback) {
    case 'allow': return { action: 'allow' }
    case 'deny': return { action: 'deny', reason: `tool "${name}" is denied: no rule matches it and the default is deny` }
    case 'ask': return { action: 'ask', reason: `no rule matches tool "${name}" and the default is ask` }
  }
}
