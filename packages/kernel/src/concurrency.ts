/**
 * Whether a call may run beside others (DESIGN.md §3: parallel only for a known tool, valid
 * arguments and `isConcurrencySafe(args) === true`; anything else is exclusive, failing closed).
 * A scheduler may also ask before a call's arguments exist (they wait for other calls'
 * results): that is answered only for a tool whose `isConcurrencySafe` cannot read them — a
 * function declared with no parameters that never mentions `arguments`, e.g. `() => true`.
 */
import { parseArguments } from './json.js'
import type { RegisteredTool } from './registry.js'
import type { ExecutionMode, ToolCall } from './types.js'

/** Source forms of a function with no parameters: `() =>`, `async () =>`, `name() {`. */
const NO_PARAMETERS = /^(?:async\s*)?(?:\(\s*\)\s*=>|[\w$]+\s*\(\s*\)\s*\{)/

/** Whether `fn` cannot see the arguments it is called with (so its answer does not depend on them). */
export function ignoresArguments(fn: Function): boolean {
  if (fn.length !== 0) return false
  let source: string
  try {
    source = Function.prototype.toString.call(fn)
  } catch {
    return false
  }
  return NO_PARAMETERS.test(source) && !/\barguments\b/.test(source)
}

/** The mode of `call` of `tool` (undefined: not registered). */
export function modeOf(tool: RegisteredTool | undefined, call: ToolCall): ExecutionMode {
  const safe = tool?.definition.isConcurrencySafe
  if (!safe) return 'exclusive'
  try {
    const args = parseArguments(call.arguments)
    const checked = tool.checkArgs(args)
    // A schema that answers later cannot classify now: exclusive, fail closed.
    if (checked instanceof Promise || !checked.ok) return 'exclusive'
    return safe.call(tool.definition, 'value' in checked ? checked.value : args) === true ? 'parallel' : 'exclusive'
  } catch {
    return 'exclusive'
  }
}

/** The mode of any call of `tool`, when it can be known without the arguments; else undefined. */
export function modeWithoutArguments(tool: RegisteredTool | undefined): ExecutionMode | undefined {
  const safe = tool?.definition.isConcurrencySafe
  if (!safe) return 'exclusive'
  if (!tool.ignoresArguments) return undefined
  try {
    return (safe as () => unknown).call(tool.definition) === true ? 'parallel' : 'exclusive'
  } catch {
    return 'exclusive'
  }
}
