/**
 * The budget's `tools/execute` handler. Guarantees: a call of a session counts once when it
 * reaches this handler (refused ones included; a call re-run under the same idempotency key in
 * the same turn is not counted again); the loop check comes before the limits; a refused call
 * never reaches the layers inside; the counts are in the session's state before the call runs
 * (so they are durable before its result commits). Counts are read and written with no await
 * in between, so the parallel calls of a batch never lose each other's counts. A call without
 * session state (a direct `ctx.tools.execute` given no session) passes through uncounted.
 * A call's time counts once, when its layers inside settle or when the kernel settles it.
 */
import {
  BUDGET_EXCEEDED, LOOP_DETECTED, failure, type ExecuteHandler, type ResultObserver, type SessionState, type ToolExec, type ToolExecutionResult,
} from '@rein/kernel'
import { ToolClock } from './clock.js'
import type { Config } from './config.js'
import { canonical, countCall, fingerprint, readCounts, writeCounts, type Counts } from './counts.js'
import { compileGlob } from './glob.js'

/** How much of the repeated arguments a `LOOP_DETECTED` message shows. */
const PREVIEW_CHARS = 200

/**
 * The handler for `config` alone. Without the plugin's observer (`budgetHooks`, what `apply`
 * registers), a call whose layers inside never settle adds no time to `maxToolMs`.
 */
export function budgetHandler(config: Config): ExecuteHandler {
  return executeHandler(config, new ToolClock())
}

/**
 * The plugin's two hooks over one clock: the `tools/execute` handler, and the `tools/result`
 * observer that counts a reconciled call and the time of a call the kernel gave up on.
 */
export function budgetHooks(config: Config): { execute: ExecuteHandler, result: ResultObserver } {
  const clock = new ToolClock()
  const reconciled = reconciledCounter(config)
  return {
    execute: executeHandler(config, clock),
    result: (exec, result) => {
      clock.settled(exec, result)
      reconciled(exec, result)
    },
  }
}

/** The `tools/execute` handler, timing calls on `clock` (globs compiled here, once). */
function executeHandler(config: Config, clock: ToolClock): ExecuteHandler {
  const costOf = costTable(config.cost)
  return (exec, next) => {
    const state = exec.session?.state
    if (!state) return next()
    const counts = readCounts(state)
    if (!countCall(counts, exec.name, exec.idempotencyKey, exec.turn ?? null)) return timed(exec, next, config, state, clock)
    const refusal = loopRefusal(exec, counts, config) ?? limitRefusal(exec, counts, config, costOf(exec.name))
    writeCounts(state, counts)
    return refusal ? Promise.resolve(refusal) : timed(exec, next, config, state, clock)
  }
}

/**
 * The budget's `tools/result` observer: a call committed by reconcile (`meta.reconciled`, its
 * effect happened before a crash) counts once like any call, never refused, if its count did
 * not reach the session before the crash (with it, the call is already counted).
 */
export function reconciledCounter(config: Config): ResultObserver {
  const costOf = costTable(config.cost)
  return (exec) => {
    const state = exec.session?.state
    if (exec.meta.reconciled !== true || !state) return
    const counts = readCounts(state)
    if (!countCall(counts, exec.name, exec.idempotencyKey, exec.turn ?? null)) return
    counts.recent = [...counts.recent, [exec.name, fingerprint(exec.arguments)] as [string, string]].slice(-config.window)
    counts.cost += costOf(exec.name)
    writeCounts(state, counts)
  }
}

/**
 * `LOOP_DETECTED` when this call is the `repeat`-th with the same tool and arguments within the
 * last `window` calls (this one included). The call joins the window either way.
 */
function loopRefusal(exec: ToolExec, counts: Counts, config: Config): ToolExecutionResult | undefined {
  if (config.repeat === 0) return undefined
  const print = fingerprint(exec.arguments)
  const earlier = counts.recent.slice(-(config.window - 1)).filter(([tool, args]) => tool === exec.name && args === print).length
  counts.recent = [...counts.recent, [exec.name, print] as [string, string]].slice(-config.window)
  if (earlier + 1 < config.repeat) return undefined
  let shown = canonical(exec.arguments)
  if (shown.length > PREVIEW_CHARS) shown = `${shown.slice(0, PREVIEW_CHARS)}...`
  return failure(LOOP_DETECTED, `loop detected: ${exec.name} was called with the same arguments ${earlier + 1} times within the last ` +
    `${config.window} calls (arguments: ${shown}); this call was not run. Do not repeat it: change the arguments, try another ` +
    'way, or say what is in the way')
}

/** `BUDGET_EXCEEDED` when a limit is crossed; otherwise adds the call's cost (it is about to run). */
function limitRefusal(exec: ToolExec, counts: Counts, config: Config, cost: number): ToolExecutionResult | undefined {
  const { maxCalls, maxCallsPerTool, maxToolMs, maxCost } = config
  let spent: string | undefined
  if (maxCalls !== undefined && counts.calls > maxCalls) spent = `its ${maxCalls} tool calls (maxCalls)`
  else if (maxCallsPerTool !== undefined && counts.perTool[exec.name]! > maxCallsPerTool) spent = `its ${maxCallsPerTool} calls of ${exec.name} (maxCallsPerTool)`
  else if (maxToolMs !== undefined && counts.toolMs >= maxToolMs) spent = `its ${maxToolMs} ms of tool time (maxToolMs; ${Math.round(counts.toolMs)} ms used)`
  else if (maxCost !== undefined && counts.cost + cost > maxCost) spent = `its cost limit of ${maxCost} (maxCost; ${counts.cost} used, this call costs ${cost})`
  if (spent === undefined) {
    counts.cost += cost
    return undefined
  }
  const after = config.onExceeded === 'end-run'
    ? 'the run ends after this batch'
    : 'further calls like it will be refused too; finish with what you have'
  const refused = failure(BUDGET_EXCEEDED, `budget exceeded: this session has used ${spent}; ${exec.name} was not run, and ${after}`)
  return config.onExceeded === 'end-run' ? { ...refused, endsRun: true } : refused
}

/** Runs the layers inside; with `maxToolMs` set, on `clock`, which adds their time to the session's counts. */
function timed(exec: ToolExec, next: () => Promise<ToolExecutionResult>, config: Config, state: SessionState, clock: ToolClock) {
  return config.maxToolMs === undefined ? next() : clock.time(exec, state, next)
}

/** What one call of a tool costs: the first glob (in the order written) that matches its name, else 0. */
function costTable(cost: Record<string, number>): (tool: string) => number {
  const entries = Object.entries(cost).map(([glob, value]) => [compileGlob(glob), value] as const)
  const known = new Map<string, number>()
  return (tool) => {
    let found = known.get(tool)
    if (found === undefined) {
      found = entries.find(([matches]) => matches(tool))?.[1] ?? 0
      known.set(tool, found)
    }
    return found
  }
}
