/**
 * How far a store's log goes, when the store can tell without reading it: the `seq` of the last
 * entry it holds, or undefined when it cannot tell (an append on its way, a file not open, a
 * store that keeps no count). The agent reads its session again at the start of a run only when
 * this is not the last entry it holds, so a run sees what another store, another process or
 * `answerApproval` appended since its last read, and a session only this agent writes is not read
 * again. The memory and JSONL stores tell it; every other store is read at each run.
 */
import type { SessionStore } from './session.js'

const heads = new WeakMap<SessionStore, () => number | undefined>()

/** Registers how `store` tells the `seq` of the last entry it holds (internal to the agent's stores). */
export function tellsHead(store: SessionStore, head: () => number | undefined): void {
  heads.set(store, head)
}

/** The `seq` of the last entry `store` holds (0: none), or undefined when it cannot tell without a load. */
export function headOf(store: SessionStore): number | undefined {
  return heads.get(store)?.()
}
