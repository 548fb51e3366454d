/**
 * What the model is told about `run_code`, derived from the registry: which tools the code may
 * call (one rule, `callableTools`, used for the description and for every run alike) and their
 * parameter schemas exactly as the model is shown them, so the schemas keep one home.
 */
import { isStandardSchema, type ToolDefinition, type ToolSpec } from '@rein/kernel'
import type { Config } from './config.js'

/** The tool's name. */
export const RUN_CODE = 'run_code'

/** The tools the code may call: the allow-list's, else every tool but `run_code` itself. */
export function callableTools(specs: readonly ToolSpec[], allow: readonly string[] | undefined): ToolSpec[] {
  return allow ? specs.filter((spec) => allow.includes(spec.name)) : specs.filter((spec) => spec.name !== RUN_CODE)
}

/** The description: how to write the code, the limits, and every callable tool with its schemas. */
export function describeRunCode(callable: readonly ToolSpec[], config: Config,
  definitionOf: (name: string) => ToolDefinition | undefined): string {
  const mib = Math.round(config.memoryLimitBytes / (1024 * 1024))
  const lines = [
    'Run JavaScript that calls tools from code: loops, independent calls at once, filtering and arithmetic,',
    'with only the final answer coming back to you.',
    '`code` is the body of an async function. `await tools.<name>(args)` runs a tool with one object of',
    'arguments, through the same permissions and policies as a direct call, and resolves to the tool\'s',
    'result as a JSON value (not its text). Start independent calls together: `await Promise.all([...])`.',
    'A failed or denied call throws an Error whose message is the tool\'s error text and whose `code` is',
    'its error code; use try/catch to carry on.',
    '`return` a JSON value (object, array, string, number, boolean or null): it is the result you see;',
    'return only what you need. Nothing else comes back: there is no console.',
    'The sandbox has the JavaScript language only: no require, import, process, fetch, timers, files or',
    `network except through tools. Limits per run: ${config.maxRunMs} ms, ${mib} MiB of memory,`,
    `${config.maxCalls} tool calls.`,
  ]
  if (callable.length === 0) {
    lines.push('No tools are callable from this sandbox.')
    return lines.join('\n')
  }
  lines.push('', 'Callable tools (args fit the JSON Schema shown; the result fits "returns" when given):')
  for (const spec of callable) {
    lines.push(`- tools.${spec.name}(args): ${summary(spec.description)}`)
    lines.push(`  args: ${JSON.stringify(spec.parameters)}`)
    const returns = definitionOf(spec.name)?.output?.schema
    if (returns !== undefined && !isStandardSchema(returns)) lines.push(`  returns: ${JSON.stringify(returns)}`)
  }
  return lines.join('\n')
}

/** The first line of a description, at most 200 characters. */
function summary(description: string): string {
  const first = description.split('\n')[0].trim()
  return first.length > 200 ? `${first.slice(0, 199)}…` : first
}
