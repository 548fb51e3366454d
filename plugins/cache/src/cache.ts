/**
 * The `tools/execute` handler. For a tool marked `idempotent`: a fresh stored success is
 * returned without running anything (`exec.meta.cacheHit`); an identical call already in
 * flight is joined, not run again (`exec.meta.cacheShared` too); otherwise the inner layers run
 * once and a success is stored. Failures are never stored. A joined call whose leader was
 * aborted does not inherit that abort: when the leader's caller aborted and its result is a
 * failure, the waiter runs the call itself. A waiter's own abort returns `ABORTED` at once.
 */
import {
  ABORTED, Messages, deepFreeze, failure,
  type ExecuteHandler, type ToolDefinition, type ToolExecutionResult,
} from '@rein/kernel'
import type { Config } from './config.js'
import { cacheKey } from './key.js'
import { TtlLru } from './store.js'

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

/** Builds the handler and its private store. `definitionOf` looks a tool up at call time. */
export function cacheHandler(config: Config, deps: CacheDeps, definitionOf: (name: string) => ToolDefinition | undefined): ExecuteHandler {
  const store = new TtlLru<ToolExecutionResult>(config.maxEntries, config.ttlMs, deps.now)
  const flights = new Map<string, Flight>()

  return async (exec, next) => {
    if (definitionOf(exec.name)?.idempotent !== true) return next()
    const key = cacheKey(exec.name, exec.arguments)
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
    const flight: Flight = {
      signal: exec.signal,
      // Removed from the map before anyone sees its result, so a settled flight is never joined.
      result: next().finally(() => { if (flights.get(key) === flight) flights.delete(key) }),
    }
    flights.set(key, flight)
    const result = await flight.result
    if (!result.isError) store.set(key, storable(result))
    return result
  }
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
