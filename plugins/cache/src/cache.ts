/**
 * The `tools/execute` handler. For an `idempotent` tool: a fresh stored success is returned
 * (`cacheHit`), an identical run in flight is joined (`cacheShared`), else the body runs once and
 * a success is stored. Identical: same tool, same arguments and, unless `shareAcrossSessions`
 * covers the tool, same session. Failures are never stored; a leader's abort is never passed to a joiner.
 * Any other call (unless `pure`, or `invalidateOn: 'never'`) is a possible write: as it starts it
 * empties the store and the joinable runs, and no run that overlapped it is stored.
 */
import {
  ABORTED, Messages, deepFreeze, failure,
  type ExecuteHandler, type ToolDefinition, type ToolExec, type ToolExecutionResult,
} from '@rein/kernel'
import type { Config } from './config.js'
import { cacheKey } from './key.js'
import { TtlLru } from './store.js'
import { Writes } from './writes.js'

/** The clock of the TTL; injectable so that tests need no timers. */
export interface CacheDeps {
  /** Milliseconds, like `Date.now()` (the default). */
  now(): number
}

/** One run of the inner layers that identical calls may join. */
interface Flight {
  readonly result: Promise<ToolExecutionResult>
  /** The leader's signal: a failure that arrives after it aborted belongs to the leader alone. */
  readonly signal: AbortSignal
}

const ABORTED_WHILE_WAITING = Symbol('aborted while waiting')

/** The cache's handler; `dispose()` clears its timers when the plugin is disposed. */
export type CacheHandler = ExecuteHandler & { dispose(): void }

/**
 * Builds the handler and its private store. `definitionOf` looks a tool up at call time.
 * A write returned abandoned (its body may still run) stays counted as running for `ttlMs`.
 */
export function cacheHandler(config: Config, deps: CacheDeps, definitionOf: (name: string) => ToolDefinition | undefined): CacheHandler {
  const store = new TtlLru<ToolExecutionResult>(config.maxEntries, config.ttlMs, deps.now)
  const flights = new Map<string, Flight>()
  // A write makes every stored result and every run already under way possibly stale. Every
  // call of a tool that may write starts here, and `Map#clear` makes a new table even for an
  // empty map: most of the time there is nothing to clear.
  const writes = new Writes(() => {
    store.clear()
    if (flights.size > 0) flights.clear()
  }, config.ttlMs)
  const pure = new Set(config.pure)
  const { shareAcrossSessions } = config
  const shared = typeof shareAcrossSessions === 'boolean' ? undefined : new Set(shareAcrossSessions)
  // A session's id is part of the key unless this tool's results are shared by every session.
  const sessionOf = (exec: ToolExec): string | undefined => {
    if (shareAcrossSessions === true || shared?.has(exec.name)) return undefined
    return exec.session?.id
  }

  const cached = async (exec: ToolExec, next: () => Promise<ToolExecutionResult>): Promise<ToolExecutionResult> => {
    const key = cacheKey(exec.name, exec.arguments, sessionOf(exec))
    for (;;) {
      const stored = store.get(key)
      if (stored) {
        exec.meta.cacheHit = true
        return stored
      }
      const flight = flights.get(key)
      if (!flight) break
      const shared = await waitFor(flight.result, exec.signal)
      if (shared === ABORTED_WHILE_WAITING) return failure(ABORTED, Messages.aborted)
      if (!(shared.isError && flight.signal.aborted)) {
        exec.meta.cacheHit = true
        exec.meta.cacheShared = true
        return shared
      }
      // The leader's own abort failed it: look again (another waiter may lead by now), or lead.
    }
    const mark = writes.mark()
    const flight: Flight = {
      signal: exec.signal,
      // Removed from the map before anyone sees its result, so a settled flight is never joined.
      result: next().finally(() => { if (flights.get(key) === flight) flights.delete(key) }),
    }
    flights.set(key, flight)
    const result = await flight.result
    if (!result.isError && writes.quietSince(mark)) store.set(key, storable(result))
    return result
  }
  // Most calls are of tools that are not idempotent: they pass through without an async frame.
  const handler: ExecuteHandler = (exec, next) => {
    if (definitionOf(exec.name)?.idempotent === true) return cached(exec, next)
    return config.invalidateOn === 'write' && !pure.has(exec.name) ? writes.around(next) : next()
  }
  return Object.assign(handler, { dispose: () => writes.dispose() })
}

/** The inner result, or a marker when `signal` aborts first. Leaves no listener behind. */
async function waitFor(result: Promise<ToolExecutionResult>, signal: AbortSignal) {
  if (signal.aborted) return ABORTED_WHILE_WAITING
  let stop = () => {}
  const aborted = new Promise<typeof ABORTED_WHILE_WAITING>((resolve) => {
    stop = () => resolve(ABORTED_WHILE_WAITING)
    signal.addEventListener('abort', stop, { once: true })
  })
  try {
    return await Promise.race([result, aborted])
  } finally {
    signal.removeEventListener('abort', stop)
  }
}

/** What is kept: the result without the leader's meta, frozen so no reader can change it. */
function storable(result: ToolExecutionResult): ToolExecutionResult {
  const { meta: _meta, ...rest } = result
  return deepFreeze(rest)
}
