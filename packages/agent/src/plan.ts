/**
 * Planning one batch before anything runs. Arguments are parsed once; references and
 * `$depends_on` become edges between calls; each call is classified, failing closed; and a
 * call whose dependencies can never be met (an id not in the batch, an ambiguous id, a
 * malformed `$depends_on`, a cycle once barrier order is counted) is marked INVALID_PLAN.
 * Pure: it runs nothing and changes nothing it is given.
 */
import { readArguments, type ExecutionMode, type ToolCall, type ToolDefinition } from '@rein/kernel'
import { components } from './cycles.js'
import { DEPENDS_ON, referencedIds } from './references.js'

/** How a call may run: `pending` until its references are substituted, then classified. */
export type Mode = ExecutionMode | 'pending'

/** One call as planned: how it may run and what it waits for. */
export interface PlannedCall {
  readonly index: number
  /** The call as the model made it. */
  readonly call: ToolCall
  /** Parsed arguments without `$depends_on` (the raw value when they are not an object). */
  readonly args: unknown
  /** The arguments hold `${id.result}` references that must be substituted before it runs. */
  readonly hasRefs: boolean
  /** Indices of the calls this one waits for, and of those that wait for it. */
  readonly deps: readonly number[]
  readonly dependents: readonly number[]
  readonly mode: Mode
  /** The INVALID_PLAN message, when the plan can never run this call. */
  readonly invalid?: string
}

/** What planning needs of `ctx.tools`. */
export interface ToolLookup {
  executionMode(call: ToolCall): ExecutionMode
  modeWithoutArguments(name: string): ExecutionMode | undefined
  get(name: string): ToolDefinition | undefined
}

/** The plan of one batch, in model order. */
export interface Plan {
  readonly calls: readonly PlannedCall[]
  /** The index of the one call with this id (only asked for ids a valid call depends on). */
  indexOf(id: string): number
}

interface Draft {
  index: number
  call: ToolCall
  args: unknown
  hasRefs: boolean
  deps: number[]
  dependents: number[]
  mode: Mode
  invalid?: string
}

/** Plans the calls of one assistant message. */
export function planBatch(calls: readonly ToolCall[], tools: ToolLookup): Plan {
  const owners = new Map<string, number>()
  const duplicated = new Set<string>()
  calls.forEach((call, index) => {
    if (owners.has(call.id)) duplicated.add(call.id)
    else owners.set(call.id, index)
  })
  const drafts = calls.map((call, index) => draft(call, index, owners, duplicated, tools))
  if (drafts.some((d) => d.deps.some((dep) => dep >= d.index))) markCycles(drafts)
  for (const d of drafts) for (const dep of d.deps) drafts[dep].dependents.push(d.index)
  return { calls: drafts, indexOf: (id) => owners.get(id)! }
}

function draft(call: ToolCall, index: number, owners: Map<string, number>, duplicated: Set<string>, tools: ToolLookup): Draft {
  // Read as the kernel reads them: arguments that need no change reach `execute` as this very
  // object, frozen and marked by the kernel, which then neither parses nor copies them again.
  const parsed = readArguments(call.arguments)
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { index, call, args: call.arguments, hasRefs: false, deps: [], dependents: [], mode: tools.executionMode(call) }
  }
  // Most calls have no `$depends_on`: their arguments are used as parsed, with no copy.
  const explicit = Object.hasOwn(parsed, DEPENDS_ON)
  let args: unknown = parsed
  let ids: string[] = []
  let invalid: string | undefined
  if (explicit) {
    const { [DEPENDS_ON]: dependsOn, ...rest } = parsed as Record<string, unknown>
    args = rest
    if (Array.isArray(dependsOn) && dependsOn.every((id) => typeof id === 'string')) ids = dependsOn
    else invalid = `"${DEPENDS_ON}" must be an array of call ids of this batch, like ["call_1"]`
  }
  const refs = referencedIds(args)
  if (refs.length > 0) ids = ids.concat(refs)
  const deps = new Set<number>()
  for (const id of ids) {
    if (duplicated.has(id)) invalid ??= `"${id}" names more than one call of this batch, so nothing can depend on it`
    else if (!owners.has(id)) invalid ??= `this call depends on "${id}", which is not a call of this batch; depend only on calls made in the same message`
    else deps.add(owners.get(id)!)
  }
  const hasRefs = refs.length > 0
  // A call whose arguments wait for other results is classified now when its tool's check
  // cannot read them (`() => true`); otherwise it stays pending, holding later calls back.
  const mode: Mode = hasRefs
    ? (tools.modeWithoutArguments(call.name) ?? 'pending')
    : tools.executionMode({ ...call, arguments: args })
  return { index, call, args, hasRefs, deps: invalid ? [] : [...deps].sort((a, b) => a - b), dependents: [], mode, invalid }
}

/**
 * Marks the calls that close a cycle. The graph is "waits for": dependencies, plus barrier
 * order counted conservatively (a pending call may turn exclusive, so it waits for every
 * earlier call and every later call waits for it). Node `n + x` stands for "every call before
 * x is final", which keeps the graph linear in size. Barrier edges all point backwards, so
 * every cycle holds a dependency edge; removing the dependencies of the marked calls (they
 * settle without running) leaves a DAG.
 */
function markCycles(drafts: Draft[]): void {
  const n = drafts.length
  const lastBlocker = new Int32Array(n)
  let blocker = -1
  for (let i = 0; i < n; i++) {
    lastBlocker[i] = blocker
    if (drafts[i].mode !== 'parallel') blocker = i
  }
  const successors = (node: number): number[] => {
    if (node >= n) {
      const x = node - n
      return x > 1 ? [x - 1, n + x - 1] : [x - 1]
    }
    const d = drafts[node]
    const barrier = d.mode !== 'parallel' ? (node > 0 ? [n + node] : []) : (lastBlocker[node] >= 0 ? [lastBlocker[node]] : [])
    return [...d.deps, ...barrier]
  }
  const component = components(2 * n, successors)
  const closing = drafts.filter((d) => d.deps.some((dep) => component[dep] === component[d.index]))
  const members = new Map<number, string[]>()
  for (const d of drafts) {
    const list = members.get(component[d.index]) ?? []
    list.push(d.call.id)
    members.set(component[d.index], list)
  }
  const named = new Map<number, string>()
  for (const d of closing) {
    const c = component[d.index]
    if (!named.has(c)) {
      const ids = members.get(c)!
      named.set(c, ids.length > 6 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', '))
    }
    d.invalid = `dependency cycle through ${named.get(c)} (counting the order ` +
      'exclusive calls impose): depend only on calls that can finish before this one starts'
    d.deps = []
  }
}
