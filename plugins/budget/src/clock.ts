/**
 * The time spent inside `tools/execute` by the calls the budget let run, added to the session's
 * `toolMs` once per call: when the layers inside settle, or when the kernel settles the call
 * without them (it gives up on a call soon after the caller's abort, and a body that ignores
 * its signal may never settle), whichever comes first. One clock per plugin instance; a call
 * is known by its `exec.meta`, the one object every view of a call shares, and is forgotten
 * once counted.
 */
import type { ResultObserver, SessionState, ToolExec, ToolExecutionResult } from '@rein/kernel'
import { readCounts, writeCounts } from './counts.js'

/** A call being timed: when it entered the layers inside, and where its counts are. */
interface Running {
  readonly started: number
  readonly state: SessionState
}

export class ToolClock {
  private readonly running = new WeakMap<object, Running>()

  /** Runs `next()`, the call's time counted once it settles or the kernel settles the call. */
  time(exec: ToolExec, state: SessionState, next: () => Promise<ToolExecutionResult>): Promise<ToolExecutionResult> {
    const key = exec.meta
    const entry: Running = { started: performance.now(), state }
    this.running.set(key, entry)
    return next().finally(() => this.stop(key, entry))
  }

  /** The `tools/result` observer: the kernel settled the call; counts its time unless that is done. */
  readonly settled: ResultObserver = (exec) => {
    const entry = this.running.get(exec.meta)
    if (entry) this.stop(exec.meta, entry)
  }

  /** Adds `entry`'s time to its session, if it is still the call's running entry. */
  private stop(key: object, entry: Running): void {
    if (this.running.get(key) !== entry) return
    this.running.delete(key)
    const counts = readCounts(entry.state)
    counts.toolMs += performance.now() - entry.started
    writeCounts(entry.state, counts)
  }
}
