/**
 * Where grep's regex runs. `workerMatcher` runs `matchLines` (match.mjs) in a worker thread of
 * its own pool (`@rein/isolate`): when the call's signal aborts (the caller, or a timeout
 * plugin's deadline), the worker is terminated, so even a catastrophically backtracking regex
 * ends then, and the next call gets a fresh worker. `inlineMatcher` runs it on this thread
 * (no isolation: for measuring the worker's cost, and for tests of the matching itself).
 */
import { isolatedFunction } from '@rein/isolate'
import { matchLines, type Found, type MatchTask } from './match.mjs'

export type { Found, MatchTask }

/** Runs one batch of matching; rejects with the signal's reason once it aborts. */
export interface Matcher {
  match(task: MatchTask, signal: AbortSignal): Promise<Found[]>
  /** Ends whatever runs; resolves once it has. */
  dispose(): Promise<void>
}

/** A matcher whose every batch runs in a worker thread; an abort terminates that worker. */
export function workerMatcher(): Matcher & { threads(): number, settled(): Promise<void> } {
  const isolated = isolatedFunction<MatchTask, Found[]>({
    module: new URL('./match.mjs', import.meta.url),
    export: 'matchLines',
    label: '@rein/tools-fs grep',
  })
  return {
    match: (task, signal) => isolated.run(task, signal),
    threads: () => isolated.threads(),
    settled: () => isolated.settled(),
    dispose: () => isolated.dispose(),
  }
}

/** A matcher that runs on the calling thread: nothing can stop a regex that backtracks. */
export function inlineMatcher(): Matcher {
  return {
    async match(task, signal) {
      signal.throwIfAborted()
      return matchLines(task)
    },
    dispose: async () => {},
  }
}
