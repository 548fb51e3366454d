/**
 * Planning one batch before anything runs. Arguments are parsed once; references and
 * `$depends_on` become edges between calls; each call is classified, failing closed; and a
 * call whose dependencies can never be met (an id not in the batch, an ambiguous id, a
 * malformed `$depends_on`, a cycle once barrier order is counted) or whose id repeats an
 * earlier call's is marked INVALID_PLAN. Whatever one call's arguments hold (nesting too deep
 * for any walk, a `__proto__` key), only that call is affected: the kernel answers it.
 * Pure: it runs nothing and changes nothing it is given.
 */
import { messageOf, readArguments, type ExecutionMode, type ToolCall, type ToolDefinition } from '@rein/kernel'
import { components } from './cycles.js'
import { DEPENDS_ON, referencesIn } from './references.js'

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

/**
 * Plans the calls of one assistant message. `givenIds` holds the id the model gave each call
 * that was renamed because an earlier call of the message had it (`renameRepeatedIds`); without
 * it, the calls' own ids are the ones the model gave. Every call after the first with an id is
 * INVALID_PLAN, and nothing may depend on a repeated id.
 */
export function planBatch(calls: readonly ToolCall[], tools: ToolLookup, givenIds?: ReadonlyMap<number, string>): Plan {
  const owners = new Map<string, number>()
  const duplicated = new Set<string>()
  calls.forEach((call, index) => {
    const id = givenIds?.get(index) ?? call.id
    if (owners.has(id)) duplicated.add(id)
    else owners.set(id, index)
  })
  const ids: Ids = { owners, duplicated, givenIds }
  const drafts = calls.map((call, index) => draft(call, index, ids, tools))
  if (drafts.some((d) => d.deps.some((dep) => dep >= d.index))) markCycles(drafts)
  for (const d of drafts) for (const dep of d.deps) drafts[dep].dependents.push(d.index)
  return { calls: drafts, indexOf: (id) => owners.get(id)! }
}

/** The ids of a batch: the first call with each id, ids given more than once, ids given before a rename. */
interface Ids {
  owners: ReadonlyMap<string, number>
  duplicated: ReadonlySet<string>
  givenIds: ReadonlyMap<number, string> | undefined
}

/**
 * One call's plan. Whatever its arguments hold, only this call is affected: a repeated id or a
 * failure to plan makes it INVALID_PLAN, arguments the kernel refuses go to the kernel as sent.
 */
function draft(call: ToolCall, index: number, ids: Ids, tools: ToolLookup): Draft {
  try {
    const given = ids.givenIds?.get(index) ?? call.id
    if (ids.owners.get(given) !== index) return asSent(call, index, repeatedId(given, call.id))
    return planned(call, index, ids, tools)
  } catch (error) {
    return asSent(call, index, `this call could not be planned (${messageOf(error)})`)
  }
}

function planned(call: ToolCall, index: number, { owners, duplicated }: Ids, tools: ToolLookup): Draft {
  // Read as the kernel reads them: arguments that need no change reach `execute` as this very
  // object, frozen and marked by the kernel, which then neither parses nor copies them again.
  const parsed = readArguments(call.arguments)
  // Arguments the kernel refuses (not an object, a `__proto__` key, nesting too deep) go to it
  // as sent, unread, and get its INVALID_ARGS: nothing here walks what the kernel would not.
  if (parsed === undefined) return asSent(call, index)
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
  const refs = referencesIn(args)
  // An object handed over nested too deep: the kernel refuses it too.
  if (refs === undefined) return asSent(call, index)
  if (refs.length > 0) ids = ids.concat(refs)
  // Most calls depend on nothing: no set to build.
  const deps = ids.length === 0 ? undefined : new Set<number>()
  for (const id of ids) {
    if (duplicated.has(id)) invalid ??= `"${id}" names more than one call of this batch, so nothing can depend on it`
    else if (!owners.has(id)) invalid ??= `this call depends on "${id}", which is not a call of this batch; depend only on calls made in the same message`
    else deps!.add(owners.get(id)!)
  }
  const hasRefs = refs.length > 0
  // A call whose arguments wait for other results is classified now when its tool's check
  // cannot read them (`() => true`); otherwise it stays pending, holding later calls back.
  const mode: Mode = hasRefs
    ? (tools.modeWithoutArguments(call.name) ?? 'pending')
    : tools.executionMode({ ...call, arguments: args })
  return { index, call, args, hasRefs, deps: invalid || !deps ? [] : [...deps].sort((a, b) => a - b), dependents: [], mode, invalid }
}

/**
 * A call handed on as the model sent it, exclusive (never classified, failing closed), waiting
 * for nothing: settled INVALID_PLAN with `invalid`, or else run, for the kernel to refuse.
 */
function asSent(call: ToolCall, index: number, invalid?: string): Draft {
  return { index, call, args: call.arguments, hasRefs: false, deps: [], dependents: [], mode: 'exclusive', invalid }
}

/** The INVALID_PLAN message of a call whose id an earlier call of the message has. */
function repeatedId(given: string, listed: string): string {
  const where = given === listed ? '' : ` (its result is listed under "${listed}")`
  return `the id "${given}" was already given to an earlier call of this message, so this call did not run${where}; ` +
    'give every call an id of its own'
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
