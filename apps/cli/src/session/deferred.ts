/**
 * A session store whose real store is chosen after the harness has loaded: `rein run` only
 * knows the file's `session` path once `loadHarness` returned, but the harness takes its
 * store when it is loaded. The agent touches its session only when it runs, by which time
 * `bind` has been called.
 */
import type { SessionStore } from '@rein/agent'

/** A store that forwards to the one given to `bind`. */
export interface DeferredSession extends SessionStore {
  bind(store: SessionStore): void
}

/** Creates an unbound store; using it before `bind` throws. */
export function deferredSession(): DeferredSession {
  let target: SessionStore | undefined
  const store = (): SessionStore => {
    if (!target) throw new Error('the session store was used before it was chosen (deferredSession().bind was not called)')
    return target
  }
  return {
    bind(next) { target = next },
    load: () => store().load(),
    append: (entry) => store().append(entry),
    close: async () => { await target?.close?.() },
  }
}
