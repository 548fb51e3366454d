/**
 * What the scheduler uses of `ctx.tools`, read once per agent: each read of a cordis service
 * (and of a member on it) builds fresh tracing proxies, and functions made per batch would make
 * every call site that calls them see a new target. Also the one question the kernel does not
 * answer: a call's mode before its arguments exist.
 */
import { serviceTarget } from '@rein/cordis-internals'
import type { ExecutionMode, ToolDefinition, ToolService } from '@rein/kernel'
import type { ToolLookup } from './plan.js'

/** The methods of `ctx.tools` a batch calls. */
export interface BatchTools extends ToolLookup {
  chain: ToolService['chain']
  execute: ToolService['execute']
  settle: ToolService['settle']
}

/**
 * The members of `service` the scheduler needs, the same functions for every batch: read from
 * the service object itself (`serviceTarget`), so a call goes through no cordis method proxy.
 */
export function batchTools(service: ToolService): BatchTools {
  const tools = serviceTarget(service)
  const get = tools.get
  return {
    chain: (name) => service.chain(name),
    execute: tools.execute,
    settle: tools.settle,
    executionMode: tools.executionMode,
    modeWithoutArguments: (name) => modeWithoutArguments(get(name)),
    get,
  }
}

/** Source forms of a function with no parameters: `() =>`, `async () =>`, `name() {`. */
const NO_PARAMETERS = /^(?:async\s*)?(?:\(\s*\)\s*=>|[\w$]+\s*\(\s*\)\s*\{)/
const ignoring = new WeakMap<Function, boolean>()

/**
 * Whether `fn` cannot see the arguments it is called with: declared with no parameters and
 * never mentioning `arguments` (e.g. `() => true`), so its answer does not depend on them.
 */
export function ignoresArguments(fn: Function): boolean {
  let known = ignoring.get(fn)
  if (known === undefined) {
    let source = ''
    try {
      source = Function.prototype.toString.call(fn)
    } catch { /* not readable: assume it reads them */ }
    known = fn.length === 0 && NO_PARAMETERS.test(source) && !/\barguments\b/.test(source)
    ignoring.set(fn, known)
  }
  return known
}

/**
 * The mode of every call of `tool` when it is known before the arguments exist (a call whose
 * arguments wait for other results); undefined when it depends on them. Unknown tools and
 * tools without `isConcurrencySafe` are exclusive (DESIGN.md §3: fail closed).
 */
export function modeWithoutArguments(tool: ToolDefinition | undefined): ExecutionMode | undefined {
  const safe = tool?.isConcurrencySafe
  if (typeof safe !== 'function') return 'exclusive'
  if (!ignoresArguments(safe)) return undefined
  try {
    return (safe as () => unknown).call(tool) === true ? 'parallel' : 'exclusive'
  } catch {
    return 'exclusive'
  }
}
