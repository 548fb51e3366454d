/**
 * Runs one batch (the calls of one assistant message). Guarantees: every call gets exactly one
 * result, committed in model order; a call starts only once its dependencies are final and its
 * barrier is open (an exclusive call waits for every earlier call; nothing passes an exclusive
 * or not-yet-classified call until it is final or turns out parallel); at most `maxParallel`
 * calls are in flight; pre-execute runs one call at a time in start order and post-execute one
 * at a time in model order, except that depended-on calls finalize as soon as they settle.
 * Abort: stop starting, let started calls drain, settle unstarted ones ABORTED_BEFORE_DISPATCH
 * (a continuation's parked calls not yet started stay parked).
 * A failure of the scheduler itself: stop starting, let started calls settle, fabricate nothing.
 * What each call appends, and when it may run, is `batch-log.ts`'s.
 * A call that parks for approval (`APPROVAL_PARKED`) gets an `approval/request` instead of a
 * result; the calls that depend on it or wait behind its barrier are held (nothing of them is
 * logged), every other call runs. A continuation (`resume`) starts from the results a batch
 * already has: those calls never run again.
 */
import {
  ABORTED_BEFORE_DISPATCH, APPROVAL_PARKED, DEPENDENCY_FAILED, INVALID_PLAN, Messages, TOOL_DENIED, codeOf,
  type ExecuteOptions, type ExecutionMode, type Json, type ToolCall, type ToolExecutionResult,
} from '@rein/kernel'
import type { ParkedCall } from './approval-book.js'
import type { BatchEnv, BatchOutcome } from './batch-env.js'
import { Barrier } from './barrier.js'
import { BatchLog, type BatchLogOwner } from './batch-log.js'
import { CommitCursor } from './commit.js'
import { DependencyCauses, type Cause } from './dependency-causes.js'
import { PostGate, PreGate } from './gates.js'
import { planBatch, type Plan } from './plan.js'
import { ReadyQueue } from './ready-queue.js'
import { substitute } from './references.js'
import { Slot, type SlotOwner } from './slot.js'

export type { BatchEnv, BatchOutcome } from './batch-env.js'

/**
 * Runs and commits the batch; resolves when every started call is final and its result's append
 * issued (committed, `durable` says when acknowledged), or, for a parked or failed batch, settled.
 */
export function runBatch(calls: readonly ToolCall[], env: BatchEnv): Promise<BatchOutcome> {
  return new Batch(calls, env).run()
}

class Batch implements SlotOwner, BatchLogOwner {
  private readonly plan: Plan
  private readonly slots: Slot[]
  private readonly ready = new ReadyQueue()
  private readonly pre: PreGate
  private readonly post: PostGate
  /** What each call commits, in model order: its result, or `null` for nothing (committed before, or held). */
  private readonly cursor: CommitCursor<ToolExecutionResult | null>
  private readonly barrier: Barrier
  private readonly uncover = (index: number) => this.tryReady(this.slots[index])
  private inFlight = 0
  private open: number
  private stopping = false
  private failure: Error | undefined
  private readonly causes: DependencyCauses
  /** The calls that parked, by index, and the lowest of them (no exclusive call after it starts). */
  private parked: Map<number, ParkedCall> | undefined
  private firstParked = Number.POSITIVE_INFINITY
  private readonly log: BatchLog
  private done!: () => void
  private readonly finished = new Promise<void>((resolve) => { this.done = resolve })

  constructor(calls: readonly ToolCall[], private readonly env: BatchEnv) {
    this.plan = planBatch(calls, env.tools, env.givenIds)
    this.slots = this.plan.calls.map((plan) => new Slot(plan, this))
    this.barrier = new Barrier(calls.length, (i) => this.slots[i].mode !== 'parallel')
    this.open = calls.length
    this.pre = new PreGate(calls.length)
    this.post = new PostGate(calls.length)
    this.log = new BatchLog(env, this)
    this.cursor = new CommitCursor(calls.length, (index, result) => this.log.commit(this.slots[index], result), (error) => this.fail(error))
    this.causes = new DependencyCauses(env.resume?.causes)
  }

  async run(): Promise<BatchOutcome> {
    const signal = this.env.signal
    const onAbort = () => this.guard(() => this.abort())
    signal?.addEventListener('abort', onAbort, { once: true })
    try {
      this.guard(() => this.begin())
      await this.finished
      if (!this.failure && !this.parked && this.env.close) this.guard(() => this.env.close!(this.slots.map((slot) => slot.result!)))
      if (this.failure || this.parked) await Promise.all([this.cursor.drained(), this.log.requested()])
    } finally {
      signal?.removeEventListener('abort', onAbort)
    }
    if (this.failure) return { kind: 'failed', error: this.failure }
    if (this.parked) return { kind: 'parked', parked: [...this.parked.keys()].sort((a, b) => a - b).map((i) => this.parked!.get(i)!) }
    const results = this.slots.map((slot) => slot.result!)
    if (!this.cursor.waiting) return { kind: 'committed', results }
    const durable = this.cursor.drained().then(() => {
      if (this.failure) throw this.failure
    })
    durable.catch(() => {}) // the agent awaits it before the run ends or the next calls run
    return { kind: 'committed', results, durable }
  }

  private begin(): void {
    if (this.open === 0) return this.done()
    const resume = this.env.resume
    if (resume) {
      // Every result from before is in place before any is passed on, so none is settled twice.
      for (const [index, result] of resume.results) this.settleBefore(this.slots[index], result)
      for (const index of resume.results.keys()) this.passOn(this.slots[index], this.slots[index].result!)
    }
    if (this.env.signal?.aborted) return this.abort()
    for (const slot of this.slots) {
      if (slot.state !== 'waiting') continue
      const expired = resume?.expired.get(slot.plan.index)
      if (expired !== undefined) this.settleEarly(slot, TOOL_DENIED, expired)
      else if (slot.plan.invalid !== undefined) this.settleEarly(slot, INVALID_PLAN, slot.plan.invalid)
      else if (slot.depsLeft === 0) this.depsReady(slot)
    }
    this.barrier.advance(this.uncover)
    this.tryReady(this.slots[this.post.frontier])
    this.pump()
    if (this.open === 0) this.done()
  }

  /** A call that has its result from before (a continuation): final at once; it is not logged, run or committed again. */
  private settleBefore(slot: Slot, result: ToolExecutionResult): void {
    slot.state = 'final'
    slot.result = result
    this.release(slot)
    this.cursor.offer(slot.plan.index, null)
  }

  private tryReady(slot: Slot | undefined): void {
    if (!slot || slot.state !== 'waiting' || this.stopping || slot.depsLeft > 0 || slot.mode === 'pending') return
    const index = slot.plan.index
    if (slot.mode === 'parallel' ? index >= this.barrier.position : index !== this.post.frontier || index > this.firstParked) return
    slot.state = 'queued'
    this.ready.push(index)
    this.log.add(slot)
  }

  private pump(): void {
    while (!this.stopping && this.inFlight < this.env.maxParallel && this.ready.size > 0) {
      this.start(this.slots[this.ready.pop()])
    }
  }

  /** Every dependency succeeded: substitute references, classify a pending call, try to start. */
  private depsReady(slot: Slot): void {
    if (slot.plan.hasRefs) {
      const valueOf = (id: string) => (this.slots[this.plan.indexOf(id)].result as { value: Json }).value
      const substituted = substitute(slot.args, valueOf)
      if (!substituted.ok) return this.settleEarly(slot, INVALID_PLAN, substituted.problem)
      slot.args = substituted.value
      if (slot.mode === 'pending') {
        slot.mode = this.env.tools.executionMode(this.callOf(slot))
        if (slot.mode === 'parallel') this.barrier.resolve(slot.plan.index, this.uncover)
      }
    }
    this.tryReady(slot)
  }

  /** Starts a call that runs: logs `tool/call`, waits for its pre turn, runs the pipeline. */
  private start(slot: Slot): void {
    slot.state = 'started'
    slot.inPool = true
    this.inFlight++
    slot.inPre = true
    this.pre.enqueue(slot.plan.index)
    this.launch(slot)
  }

  /** Starts a call that will not run: it is logged, then settled with `code` by the kernel. */
  private settleEarly(slot: Slot, code: string, message: string): void {
    slot.state = 'started'
    this.launch(slot, code, message)
  }

  /** Logging the call failed: a started call is lost; a queued one fails the batch, which gives it up with the rest. */
  unlogged(slot: Slot, error: unknown): void {
    if (slot.state === 'started') this.lost(slot, error)
    else this.fail(error)
  }

  /** Runs the call once its `tool/call` entry is durable (or, given a `code`, has the kernel settle it with that code). */
  private launch(slot: Slot, code?: string, message?: string): void {
    const call = this.callOf(slot)
    const at = slot.clock.start()
    const mode = slot.mode !== 'pending' ? slot.mode : undefined
    this.log.whenDurable(slot, () => this.logged(slot, call, mode, at, code, message))
  }

  /** The `tool/call` entry is durable: announce the call, then settle it, or run it in its pre turn. */
  private logged(slot: Slot, call: ToolCall, mode: ExecutionMode | undefined, at: number, code: string | undefined, message: string | undefined): void {
    const { turn, agent, tools, events } = this.env
    const index = slot.plan.index
    let result: Promise<ToolExecutionResult>
    try {
      if (events.listens('agent/call-start')) {
        events.emit('agent/call-start', {
          runId: events.runId, agent, turn, index, id: call.id, name: call.name, arguments: slot.args, mode, at,
        })
      }
      const options = this.optionsFor(slot)
      if (code !== undefined) {
        result = tools.settle(call, code, message!, options)
      } else {
        const waiting = this.pre.turn(index)
        result = waiting === undefined ? tools.execute(call, options) : waiting.then(() => tools.execute(call, options))
      }
    } catch (error) {
      return this.lost(slot, error)
    }
    result.then((final) => this.guard(() => this.onFinal(slot, final)), (error) => this.lost(slot, error))
  }

  /** Logging or running the call failed: the batch fails, and the call is a gap (nothing made up). */
  private lost(slot: Slot, error: unknown): void {
    this.fail(error)
    this.guard(() => this.abandon(slot))
  }

  private onFinal(slot: Slot, result: ToolExecutionResult): void {
    const { index, call } = slot.plan
    slot.state = 'final'
    slot.result = result
    const timing = slot.timing = slot.clock.final()
    if (codeOf(result) === APPROVAL_PARKED && this.env.approvals) this.park(slot)
    this.release(slot)
    const { turn, agent, events } = this.env
    if (events.listens('agent/call-end')) {
      events.emit('agent/call-end', {
        runId: events.runId, agent, turn, index, id: call.id, name: call.name, arguments: slot.args,
        mode: slot.mode !== 'pending' ? slot.mode : undefined, result, code: codeOf(result), meta: result.meta,
        durationMs: timing.finalAt - timing.startedAt, timing,
      })
    }
    this.cursor.offer(index, result)
    if (!slot.parked) this.passOn(slot, result)
    this.tryReady(this.slots[this.post.frontier])
    this.pump()
    if (this.parked) this.holdTheRest()
    if (this.open === 0) this.done()
  }

  /** A final call's dependents learn its outcome (ready, or DEPENDENCY_FAILED), and its barrier opens. */
  private passOn(slot: Slot, result: ToolExecutionResult): void {
    const { index, call, dependents } = slot.plan
    let cause: Cause | undefined
    for (const d of this.stopping ? [] : dependents) {
      const dependent = this.slots[d]
      dependent.depsLeft--
      if (dependent.state !== 'waiting') continue
      if (result.isError) this.dependencyFailed(dependent, call.id, cause ??= this.causes.of(index, call.id, result))
      else if (dependent.depsLeft === 0) this.depsReady(dependent)
    }
    if (this.barrier.isBlocking(index)) this.barrier.resolve(index, this.uncover)
  }

  /**
   * The call parked: it keeps its barrier (nothing passes it), every call depending on it, however
   * indirectly, is held at once (so no post-execute turn waits for them), and no exclusive call
   * after it starts. What it records is the book's to say: the request standing for it, or a new one.
   */
  private park(slot: Slot): void {
    const { index, call } = slot.plan
    slot.parked = true
    this.firstParked = Math.min(this.firstParked, index)
    const { entry, parked } = this.env.approvals!.park(this.env.turn, index, call, slot.args as { [key: string]: Json }, Date.now())
    ;(this.parked ??= new Map()).set(index, parked)
    this.log.request(slot, entry)
    const behind = [...slot.plan.dependents]
    while (behind.length > 0) {
      const dependent = this.slots[behind.pop()!]
      if (dependent.state !== 'waiting') continue
      this.hold(dependent)
      behind.push(...dependent.plan.dependents)
    }
  }

  /** A call that waits behind a parked one: nothing of it is logged or committed in this run. */
  private hold(slot: Slot): void {
    slot.state = 'held'
    this.open--
    this.post.finish(slot.plan.index)
    this.cursor.offer(slot.plan.index, null)
  }

  /**
   * Once nothing is queued or on its way (every started call waits for its post-execute turn, if
   * any is started at all), every call still waiting waits behind a parked one: held.
   */
  private holdTheRest(): void {
    if (this.open === 0 || this.ready.size > 0 || this.stopping) return
    for (const slot of this.slots) if (slot.state === 'queued' || (slot.state === 'started' && !this.post.isWaiting(slot.plan.index))) return
    for (const slot of this.slots) if (slot.state === 'waiting') this.hold(slot)
    if (this.open === 0) this.done()
  }

  /** Settles `slot` DEPENDENCY_FAILED: dependency `failed` failed, and `cause` started it (`dependency-causes.ts`). */
  private dependencyFailed(slot: Slot, failed: string, cause: Cause): void {
    this.settleEarly(slot, DEPENDENCY_FAILED, this.causes.settle(slot.plan.index, failed, cause))
  }

  /** A started call that will never have a result (its log failed): a gap, nothing made up. */
  private abandon(slot: Slot): void {
    slot.state = 'abandoned'
    this.release(slot)
    if (this.open === 0) this.done()
  }

  /** The call is over: frees its pool slot, pre turn and post turn, moves the frontier. */
  private release(slot: Slot): void {
    this.open--
    this.leavePre(slot)
    this.leavePool(slot)
    this.post.finish(slot.plan.index)
  }

  private leavePre(slot: Slot): void {
    if (!slot.inPre) return
    slot.inPre = false
    this.pre.release(slot.plan.index)
  }

  private leavePool(slot: Slot): void {
    if (!slot.inPool) return
    slot.inPool = false
    this.inFlight--
    this.pump()
  }

  /**
   * The run's signal fired: started calls see it; unstarted ones are settled, not run, except
   * the parked calls a continuation had yet to start: they stay parked (their requests stand).
   */
  private abort(): void {
    if (this.stopping) return
    this.stopping = true
    this.ready.clear()
    for (const slot of this.slots) {
      if (slot.state !== 'waiting' && slot.state !== 'queued') continue
      const standing = this.env.resume?.standing.get(slot.plan.index)
      if (standing) {
        (this.parked ??= new Map()).set(slot.plan.index, standing)
        this.hold(slot)
      } else {
        this.settleEarly(slot, ABORTED_BEFORE_DISPATCH, Messages.abortedBeforeDispatch)
      }
    }
    if (this.open === 0) this.done()
  }

  /** The scheduler itself failed: start nothing more; unstarted calls get no result at all. */
  private fail(error: unknown): void {
    if (this.failure) return
    this.failure = error instanceof Error ? error : new Error(String(error))
    this.stopping = true
    this.ready.clear()
    for (const slot of this.slots) {
      if (slot.state === 'waiting' || slot.state === 'queued') this.abandon(slot)
    }
  }

  guard(action: () => void): void {
    try {
      action()
    } catch (error) {
      this.fail(error)
    }
  }

  private callOf(slot: Slot): ToolCall {
    return { id: slot.plan.call.id, name: slot.plan.call.name, arguments: slot.args }
  }

  /** The call's body began: its pre stage is over. */
  bodyStarted(slot: Slot): void {
    slot.clock.bodyStart()
    this.leavePre(slot)
  }

  /** The call's body returned: its pool slot is free. */
  bodyEnded(slot: Slot): void {
    slot.clock.bodyEnd()
    this.guard(() => this.leavePool(slot))
  }

  /** The call reached post-execute: resolves on its post turn (early when others depend on it). */
  postTurn(slot: Slot): Promise<void> | undefined {
    this.leavePre(slot)
    this.guard(() => this.leavePool(slot))
    const turn = this.post.enter(slot.plan.index, slot.plan.dependents.length > 0)
    // It may wait for a call that will be held (a settled call does not wait for barriers).
    if (turn && this.parked) queueMicrotask(() => this.guard(() => this.holdTheRest()))
    return turn
  }

  /**
   * The call's result is final: the next call may take its post turn now, while a
   * `tools/hand-off` hold (the audit's write) still keeps this result from the batch.
   */
  postEnded(slot: Slot): void {
    this.guard(() => this.post.finish(slot.plan.index))
  }

  /**
   * The call's options: the run's own signal (started calls see its abort directly), the
   * session, and the slot as the kernel's stage callbacks, which order pre- and post-execute across the batch.
   */
  private optionsFor(slot: Slot): ExecuteOptions {
    return { signal: this.env.signal, turn: this.env.turn, index: slot.plan.index, agent: this.env.agent, session: this.env.session, stages: slot }
  }
}
