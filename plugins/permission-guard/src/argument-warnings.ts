/**
 * Warnings, at load, about rules that name in `when` an argument the tool's JSON Schema does
 * not declare: such a rule never matches a call that follows the schema.
 */
import { isPlainObject } from './matchers.js'
import { describeRule, type CompiledRule, type ToolRules } from './rule.js'

/** Rules for tool `name` that name an argument missing from its JSON Schema's `properties` (none when it declares none). */
export function argumentWarnings(tool: ToolRules, name: string, parameters: unknown): string[] {
  const properties = isPlainObject(parameters) ? parameters.properties : undefined
  if (!isPlainObject(properties)) return []
  return tool.rules.flatMap((compiled) => compiled.when
    .filter(([arg]) => !Object.hasOwn(properties, arg))
    .map(([arg]) => missingArgument(compiled, arg, name, Object.keys(properties))))
}

/** The warning for a rule whose `when` names argument `arg`, which tool `name` does not declare. */
function missingArgument({ rule, index }: CompiledRule, arg: string, name: string, declared: string[]): string {
  const list = declared.map((known) => JSON.stringify(known)).join(', ') || 'none'
  return `${describeRule(rule, index)} names the argument ${JSON.stringify(arg)}, which tool ${JSON.stringify(name)} does not have `
    + `(its arguments: ${list}), so the rule never matches a call that follows the tool's schema`
}
