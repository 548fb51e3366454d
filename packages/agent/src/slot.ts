/**
 * One call of a batch, as the scheduler tracks it: its state, its arguments once substituted,
 * its mode once classified, its clock and its final result. A slot is also the call's
 * `StageCallbacks`, handed to `ctx.tools.execute`, so a started call needs no callback objects
 * of its own: the kernel calls the slot, and the slot tells the batch that owns it.
 */
import type { StageCallbacks, ToolExecutionResult } from '@rein/kernel'
import { CallClock } from './call-clock.js'
import type { Mode, PlannedCall } from './plan.js'
import type { CallTiming } from '@rein/types'

/**
 * Where a call is: not startable yet, ready (logged), started, final, given up (a gap), or held
 * (it waits behind a call that parked for approval: nothing of it is logged in this run).
 */
export type SlotState = 'waiting' | 'queued' | 'started' | 'final' | 'abandoned' | 'held'

/** What the batch does when a slot's stage hooks fire. */
export interface SlotOwner {
  bodyStarted(slot: Slot): void
  bodyEnded(slot: Slot): void
  postTurn(slot: Slot): Promise<void> | undefined
  postEnded(slot: Slot): void
}

/** The scheduler's record of one call. */
export class Slot implements StageCallbacks {
  state: SlotState = 'waiting'
  depsLeft: number
  mode: Mode
  args: unknown
  inPool = false
  inPre = false
  readonly clock = new CallClock()
  timing?: CallTiming
  result?: ToolExecutionResult
  /** It parked for approval (`APPROVAL_PARKED`): a request is recorded instead of a result. */
  parked = false
  /** Its `tool/call` entry: appended (when queued, or settled without queueing), durable, or failed. */
  log?: 'pending' | 'durable' | 'failed'
  /** What runs it once its entry is durable, when it started before that. */
  run?: () => void

  constructor(readonly plan: PlannedCall, private readonly owner: SlotOwner) {
    this.depsLeft = plan.deps.length
    this.mode = plan.mode
    this.args = plan.args
  }

  bodyStart(): void {
    this.owner.bodyStarted(this)
  }

  bodyEnd(): void {
    this.owner.bodyEnded(this)
  }

  postTurn(): Promise<void> | undefined {
    return this.owner.postTurn(this)
  }

  postEnd(): void {
    this.owner.postEnded(this)
  }
}
