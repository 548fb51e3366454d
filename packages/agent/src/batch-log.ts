/**
 * The entries one batch appends, and when each call may run. A call's `tool/call` entry (its
 * `at` and `mode`) is appended once: when the call is queued, not when a pool slot frees for it,
 * so that a grouping store writes every queued call's entry in one write and one sync, and a
 * call starts without waiting for a sync of its own (docs/ARCHITECTURE.md, "Logged when
 * queued"). A call runs only once its entry is durable. What a call commits, in model order, is
 * its `tool/result` (`timing` from the stage hooks, `meta`, and the value of a success that a
 * later call references). A call that parked commits nothing: its `approval/request` is appended
 * the moment it parks.
 */
import type { ToolExecutionResult } from '@rein/kernel'
import type { BatchEnv } from './batch-env.js'
import { callEntry, resultEntry, type NewSessionEntry } from './session.js'
import type { Slot } from './slot.js'

// Settled: calls whose entries are already durable run in a reaction to it (no `queueMicrotask`: docs/performance.md).
const DURABLE = Promise.resolve()

/** What the batch does when a call's entry cannot be stored, and how it runs a step that may throw. */
export interface BatchLogOwner {
  /** The append of `slot`'s entry (its `tool/call`, or the request of a call that parked) threw or was refused. */
  unlogged(slot: Slot, error: unknown): void
  /** Runs `action`; one that throws fails the batch. */
  guard(action: () => void): void
}

/** The entries of one batch: it owns each slot's `log` and `run`. */
export class BatchLog {
  // Calls launched with their entry durable at once, to run in one reaction, in launch order (`runDurable`).
  private toRun: Array<() => void> = []
  // The appends of parked calls' requests still on their way (`request`).
  private readonly requests: Promise<void>[] = []

  constructor(private readonly env: Pick<BatchEnv, 'log' | 'turn'>, private readonly owner: BatchLogOwner) {}

  /**
   * Appends the call's `tool/call` entry, unless it was appended already (its arguments and mode
   * as they are now). The scheduler calls it when the call is queued: a queued call always
   * starts, or is settled (an abort), unless the scheduler itself fails.
   */
  add(slot: Slot): void {
    if (slot.log !== undefined) return
    slot.log = 'pending'
    const entry = callEntry(this.env.turn, slot.plan.index, slot.plan.call, slot.args, slot.mode !== 'pending' ? slot.mode : undefined)
    let appended: Promise<unknown> | undefined
    try {
      appended = this.env.log.add(entry, true)
    } catch (error) {
      return this.unlogged(slot, error)
    }
    if (appended === undefined) slot.log = 'durable'
    else appended.then(() => this.durable(slot), (error) => this.unlogged(slot, error))
  }

  /**
   * Appends the entry if need be, then has `run` run once it is durable: in a reaction when it is
   * durable already (this runs inside the batch's `pump`; one reaction for every call launched
   * before it runs, not one promise per call), else when the store acknowledges it. Never, when
   * the append failed (the owner was told).
   */
  whenDurable(slot: Slot, run: () => void): void {
    this.add(slot)
    if (slot.log === 'durable') {
      if (this.toRun.push(run) === 1) DURABLE.then(this.runDurable)
    } else if (slot.log === 'pending') slot.run = run
  }

  /** Runs the calls `whenDurable` queued, in order; one that throws fails the batch, and the rest still run. */
  private readonly runDurable = () => {
    const runs = this.toRun
    this.toRun = []
    for (const run of runs) this.owner.guard(run)
  }

  /** Appends what `slot` commits (`null`: nothing, it committed before or is held); undefined when durable at once (or nothing to append). */
  commit(slot: Slot, result: ToolExecutionResult | null): Promise<unknown> | undefined {
    // A parked call's request was appended when it parked (`request`).
    if (result === null || slot.parked) return undefined
    const entry = resultEntry(this.env.turn, slot.plan.index, slot.plan.call.id, result, slot.timing, slot.plan.dependents.length > 0)
    entry.at = Date.now() // as the log would stamp it, but without it copying the entry to do so
    return this.env.log.add(entry, true)
  }

  /**
   * Appends the request of `slot`, which parked, at once rather than in model order behind the
   * calls before it: from the moment its call is known to have parked, a process killed at any
   * point leaves the call parked in the log (its request after its `tool/call`), never started
   * and unanswered. A failed append fails the batch.
   */
  request(slot: Slot, entry: NewSessionEntry): void {
    let appended: Promise<unknown> | undefined
    try {
      appended = this.env.log.add(entry)
    } catch (error) {
      return this.owner.unlogged(slot, error)
    }
    if (appended) this.requests.push(appended.then(() => {}, (error: unknown) => this.owner.unlogged(slot, error)))
  }

  /** Resolves once every request appended so far is durable, or its append failed (the owner was told). */
  requested(): Promise<unknown> {
    return Promise.all(this.requests)
  }

  /** The call's entry is durable: a call launched meanwhile runs now. */
  private durable(slot: Slot): void {
    slot.log = 'durable'
    const run = slot.run
    slot.run = undefined
    run?.()
  }

  private unlogged(slot: Slot, error: unknown): void {
    slot.log = 'failed'
    slot.run = undefined
    this.owner.unlogged(slot, error)
  }
}
