/**
 * A gate: tool doubles whose bodies wait until the test releases them by call id. It records
 * the order in which bodies start and finish and the peak number running at once, so tests
 * establish ordering with promises, never with sleeps. Every tool made by one gate shares
 * these records, so `[read, write]` tools of one gate show one start order.
 */
import { defineTool, type Json, type ToolDefinition, type ToolExec } from '@rein/kernel'

/** How a gated tool behaves. */
export interface GateToolOptions {
  /** `isConcurrencySafe`: `true` (default), `false`, or a function of the arguments. */
  safe?: boolean | ((args: Record<string, unknown>) => boolean)
  /** The body keeps waiting for its release even after `exec.signal` aborts. */
  ignoreSignal?: boolean
  /** A success ends the agent loop after its batch. */
  concludesTurn?: boolean
}

type Outcome = { kind: 'value', value: Json } | { kind: 'error', message: string, code?: string }

/** A gate and its records; every tool made by one gate shares them. */
export interface Gate {
  /** A tool whose body waits for `release(id)` / `fail(id)`. */
  tool(name: string, options?: GateToolOptions): ToolDefinition
  /**
   * Lets the body of call `id` return `value` (default `"result of <id>"`); may come before it
   * starts. Two bodies with the same id are released one per call, first started first.
   */
  release(id: string, value?: Json): void
  /** Makes the body of call `id` throw an error with `message` (and `code`, when given). */
  fail(id: string, message?: string, code?: string): void
  /** Resolves once the body of call `id` has started (at once if it already has). */
  whenStarted(id: string): Promise<void>
  /** Resolves once `count` bodies are running at the same time. */
  whenRunning(count: number): Promise<void>
  /** Call ids in the order their bodies started / finished. */
  readonly started: readonly string[]
  readonly finished: readonly string[]
  /** `start <id>` / `end <id>` lines in the order they happened. */
  readonly log: readonly string[]
  /** Bodies running now, and the most that ever ran at once. */
  readonly running: number
  readonly peak: number
  /** The arguments each body received, by call id. */
  readonly args: ReadonlyMap<string, Readonly<Record<string, unknown>>>
}

/** Makes a new gate with empty records. */
export function createGate(): Gate {
  const outcomes = new Map<string, Outcome[]>()
  const waiting = new Map<string, Array<(outcome: Outcome) => void>>()
  const startWaiters = new Map<string, Array<() => void>>()
  const runningWaiters: Array<{ count: number, resolve: () => void }> = []
  const started: string[] = []
  const finished: string[] = []
  const log: string[] = []
  const args = new Map<string, Readonly<Record<string, unknown>>>()
  let running = 0
  let peak = 0

  // Per id, first in first out: bodies waiting for a release, and releases waiting for a body.
  const take = <T>(map: Map<string, T[]>, id: string): T | undefined => {
    const list = map.get(id)
    const first = list?.shift()
    if (list?.length === 0) map.delete(id)
    return first
  }
  const put = <T>(map: Map<string, T[]>, id: string, item: T) => {
    const list = map.get(id)
    if (list) list.push(item)
    else map.set(id, [item])
  }

  const settle = (id: string, outcome: Outcome) => {
    const resolve = take(waiting, id)
    if (resolve) resolve(outcome)
    else put(outcomes, id, outcome)
  }

  const outcomeFor = (exec: ToolExec, ignoreSignal: boolean) => {
    const ready = take(outcomes, exec.id)
    if (ready) return Promise.resolve(ready)
    return new Promise<Outcome>((resolve, reject) => {
      put(waiting, exec.id, resolve)
      if (ignoreSignal) return
      const signal = exec.signal
      const onAbort = () => {
        const list = waiting.get(exec.id)
        const at = list?.indexOf(resolve) ?? -1
        if (at >= 0) list!.splice(at, 1)
        if (list?.length === 0) waiting.delete(exec.id)
        reject(signal.reason)
      }
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
    })
  }

  const body = async (id: string, exec: ToolExec, ignoreSignal: boolean): Promise<Json> => {
    started.push(id)
    log.push(`start ${id}`)
    args.set(id, exec.arguments)
    running++
    peak = Math.max(peak, running)
    for (const resolve of startWaiters.get(id) ?? []) resolve()
    startWaiters.delete(id)
    for (const waiter of runningWaiters.splice(0)) {
      if (running >= waiter.count) waiter.resolve()
      else runningWaiters.push(waiter)
    }
    try {
      const outcome = await outcomeFor(exec, ignoreSignal)
      if (outcome.kind === 'error') throw Object.assign(new Error(outcome.message), outcome.code ? { code: outcome.code } : {})
      return outcome.value
    } finally {
      running--
      finished.push(id)
      log.push(`end ${id}`)
    }
  }

  return {
    tool(name, options = {}) {
      const safe = options.safe ?? true
      return defineTool({
        name,
        description: `Gated test tool "${name}": returns when the test releases the call.`,
        parameters: { type: 'object', additionalProperties: true },
        isConcurrencySafe: typeof safe === 'function' ? safe : () => safe,
        concludesTurn: options.concludesTurn,
        execute: (_args: Record<string, unknown>, exec: ToolExec) => body(exec.id, exec, !!options.ignoreSignal),
      })
    },
    release(id, value) {
      settle(id, { kind: 'value', value: value === undefined ? `result of ${id}` : value })
    },
    fail(id, message = `call ${id} failed`, code) {
      settle(id, { kind: 'error', message, code })
    },
    whenStarted(id) {
      if (started.includes(id)) return Promise.resolve()
      return new Promise((resolve) => {
        const list = startWaiters.get(id) ?? []
        list.push(resolve)
        startWaiters.set(id, list)
      })
    },
    whenRunning(count) {
      if (running >= count) return Promise.resolve()
      return new Promise((resolve) => runningWaiters.push({ count, resolve }))
    },
    get started() { return started },
    get finished() { return finished },
    get log() { return log },
    get running() { return running },
    get peak() { return peak },
    get args() { return args },
  }
}
