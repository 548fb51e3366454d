/**
 * The agent's progress events, emitted on the context for a CLI or UI to show calls live.
 * They are observe-only: a listener that throws is logged and changes nothing in the run.
 */
import type { Context } from 'cordis'
import type { ToolExecutionResult } from '@rein/kernel'
import type { CallTiming, TurnOutcome } from './session.js'

/** A call started: its `tool/call` is logged and it is on its way into the pipeline. */
export interface CallStartEvent {
  agent: string
  turn: number
  index: number
  id: string
  name: string
  arguments: unknown
}

/** A call is final (not yet committed: commits follow in model order). */
export interface CallEndEvent {
  agent: string
  turn: number
  index: number
  id: string
  name: string
  result: ToolExecutionResult
  /** From the call's start to its final result (`timing.finalAt - timing.startedAt`). */
  durationMs: number
  /** When its stages happened; the same object its `tool/result` entry carries. */
  timing: CallTiming
}

/** A batch is over: its results are committed (`failed`: the scheduler stopped, see the run's error). */
export interface TurnEndEvent {
  agent: string
  turn: number
  calls: number
  outcome: TurnOutcome | 'failed'
}

/** Model text as it streams in, when the provider streams. */
export interface TextDeltaEvent {
  agent: string
  turn: number
  text: string
}

declare module 'cordis' {
  interface Events<C> {
    'agent/call-start'(event: CallStartEvent): void
    'agent/call-end'(event: CallEndEvent): void
    'agent/turn-end'(event: TurnEndEvent): void
    'agent/text-delta'(event: TextDeltaEvent): void
  }
}

type EventMap = {
  'agent/call-start': CallStartEvent
  'agent/call-end': CallEndEvent
  'agent/turn-end': TurnEndEvent
  'agent/text-delta': TextDeltaEvent
}

/**
 * The agent's events on one context. A cordis emit costs tens of microseconds (proxies), and a
 * batch emits two events per call, so an event nobody listens to (neither to it nor to
 * `internal/event`) is not dispatched; callers on a hot path ask `listens` first so that they
 * do not even build it. A listener's throw is logged, never passed on.
 */
export class AgentEvents {
  // Looked up once: every cordis property lookup (on `ctx`, and on its lifecycle) goes through
  // proxies. `_hooks` is the lifecycle's own table of listeners, updated in place.
  private readonly lifecycle: Context['lifecycle']
  private readonly hooks: Context['lifecycle']['_hooks']

  constructor(private readonly ctx: Context) {
    this.lifecycle = ctx.lifecycle
    this.hooks = this.lifecycle._hooks
  }

  /** Whether emitting `name` now would reach a listener. */
  listens(name: keyof EventMap): boolean {
    const hooks = this.hooks
    return hooks[name]?.length > 0 || hooks['internal/event']?.length > 0
  }

  /** Emits `event` if anyone listens. */
  emit<K extends keyof EventMap>(name: K, event: EventMap[K]): void {
    if (!this.listens(name)) return
    try {
      this.lifecycle.emit(name, event)
    } catch (error) {
      this.ctx.logger('agent').warn(`a listener of ${name} failed: ${(error as Error)?.message ?? error}`)
    }
  }
}
