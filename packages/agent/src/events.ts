/**
 * The agent's observation events: a run's start and end, each model request and response,
 * each call's start and end, each batch's end, streamed text. Observe-only: a listener that
 * throws is logged and changes nothing in the run, and the other listeners still run.
 * Two ways to listen, one dispatch per event:
 *   - per run: `ctx.on('agent/run-start', (run) => run.observe({ 'agent/call-end': ... }))`.
 *     Plain functions in arrays, dropped when the run ends; the fast path (tens of ns an event).
 *   - `ctx.on('agent/...')` for any event: cordis events, kept for existing users (a cordis
 *     dispatch costs tens of µs, so an event is only built and sent when someone listens).
 */
import type { Context } from 'cordis'
import { type AssistantMessage, type ExecutionMode, type Json, type Message, type ToolExecutionResult } from '@rein/kernel'
import { eventBus, type EventBus } from './event-bus.js'
import type { CallTiming, TurnOutcome } from './session.js'

/** Every event names its run: `runId` is new for each `agent.run()`, `agent` is the agent's name. */
export interface RunFacts {
  runId: string
  agent: string
}

/**
 * A run began (before its session is opened). `observe` subscribes handlers to this run's
 * later events; they are dropped when the run ends (or by calling the function returned).
 */
export interface RunStartEvent extends RunFacts {
  /** `Date.now()` when the run began. */
  at: number
  observe(observer: RunObserver): () => void
}

/** A run ended; `outcome` is the `kind` of what `agent.run()` resolves with. */
export interface RunEndEvent extends RunFacts {
  at: number
  outcome: 'completed' | 'max-turns' | 'aborted' | 'error' | 'stopped' | 'awaiting-approval'
  /** The run's error, for `outcome: 'error'`. */
  error?: Error
  /** Model requests made by this run. */
  steps: number
}

/** The loop is about to ask the model. `step` counts this run's requests from 1; `turn` is the turn the answer will have. */
export interface ModelRequestEvent extends RunFacts {
  turn: number
  step: number
  at: number
  /** The provider's `model`, when it has a string one. */
  model?: string
  /** What the model is shown (the run's transcript; do not change it). */
  messages: readonly Message[]
}

/** The model answered (`message`), or the request failed (`error`; also when the run was aborted). */
export interface ModelResponseEvent extends RunFacts {
  turn: number
  step: number
  at: number
  model?: string
  message?: AssistantMessage
  /** The provider's finish reason, when its answer carries a string `finishReason`. */
  finishReason?: string
  /** Token counts, when the provider reports them. */
  usage?: AssistantMessage['usage']
  error?: Error
}

/** A call started: its `tool/call` is logged and it is on its way into the pipeline. */
export interface CallStartEvent extends RunFacts {
  /** The batch: the turn number of the assistant message that made the call. */
  turn: number
  /** The call's position in its batch (model order). */
  index: number
  id: string
  name: string
  arguments: unknown
  /** How the scheduler runs it; absent while a call with references is not yet classified. */
  mode?: ExecutionMode
  /** `Date.now()` at the start: `timing.startedAt` of its end event. */
  at: number
}

/** A call is final (not yet committed: commits follow in model order). */
export interface CallEndEvent extends RunFacts {
  turn: number
  index: number
  id: string
  name: string
  /** The arguments it ran with (as on its start event). */
  arguments: unknown
  mode?: ExecutionMode
  result: ToolExecutionResult
  /** The result's code (`error.info.code`) when it failed. */
  code?: string
  /** The facts plugins recorded for the call (`result.meta`: attempts, cacheHit, spilled...). */
  meta?: Record<string, Json>
  /** From the call's start to its final result (`timing.finalAt - timing.startedAt`). */
  durationMs: number
  /** When its stages happened; the same object its `tool/result` entry carries. */
  timing: CallTiming
}

/**
 * A batch is over: its results are committed (`failed`: the scheduler stopped, see the run's
 * error; `parked`: calls wait for approval, the run ends `awaiting-approval`).
 */
export interface TurnEndEvent extends RunFacts {
  turn: number
  calls: number
  outcome: TurnOutcome | 'failed' | 'parked'
}

/** Model text as it streams in, when the provider streams. */
export interface TextDeltaEvent extends RunFacts {
  turn: number
  step: number
  text: string
}

/** Every event by name. */
export interface AgentEventMap {
  'agent/run-start': RunStartEvent
  'agent/run-end': RunEndEvent
  'agent/model-request': ModelRequestEvent
  'agent/model-response': ModelResponseEvent
  'agent/call-start': CallStartEvent
  'agent/call-end': CallEndEvent
  'agent/turn-end': TurnEndEvent
  'agent/text-delta': TextDeltaEvent
}

/** The events a run's observers can receive (everything after the run's start). */
export type RunEventName = Exclude<keyof AgentEventMap, 'agent/run-start'>

/** Handlers for one run, by event name; every one is optional. */
export type RunObserver = { [K in RunEventName]?: (event: AgentEventMap[K]) => void }

declare module 'cordis' {
  interface Events<C> {
    'agent/run-start'(event: RunStartEvent): void
    'agent/run-end'(event: RunEndEvent): void
    'agent/model-request'(event: ModelRequestEvent): void
    'agent/model-response'(event: ModelResponseEvent): void
    'agent/call-start'(event: CallStartEvent): void
    'agent/call-end'(event: CallEndEvent): void
    'agent/turn-end'(event: TurnEndEvent): void
    'agent/text-delta'(event: TextDeltaEvent): void
  }
}

type Handler = (event: never) => void

/**
 * The events of one run. Callers on a hot path ask `listens` first so that they do not even
 * build an event nobody receives.
 */
export class AgentEvents {
  // Looked up once (every cordis property lookup goes through proxies); it answers whether a
  // cordis dispatch would reach anybody, so that none is built for nobody.
  private readonly bus: EventBus
  // Per event, this run's handlers. Replaced, never changed in place, so a handler that
  // subscribes or unsubscribes during a dispatch does not disturb it.
  private handlers: { [K in RunEventName]?: readonly Handler[] } = {}
  private closed = false

  constructor(private readonly ctx: Context, readonly runId: string) {
    this.bus = eventBus(ctx)
  }

  /** Subscribes `observer`'s handlers to this run's events; returns the unsubscribe function. */
  observe(observer: RunObserver): () => void {
    if (this.closed) return () => {}
    const added: Array<[RunEventName, Handler]> = []
    for (const name of Object.keys(observer) as RunEventName[]) {
      const handler = observer[name]
      if (typeof handler !== 'function') continue
      this.handlers[name] = [...(this.handlers[name] ?? []), handler as Handler]
      added.push([name, handler as Handler])
    }
    return () => {
      for (const [name, handler] of added.splice(0)) {
        const left = (this.handlers[name] ?? []).filter((h) => h !== handler)
        this.handlers[name] = left.length > 0 ? left : undefined
      }
    }
  }

  /** Whether emitting `name` now would reach a listener. */
  listens(name: keyof AgentEventMap): boolean {
    if (name !== 'agent/run-start' && this.handlers[name] !== undefined) return true
    return this.bus.listens(name)
  }

  /** Sends `event` to this run's observers, then to `ctx.on` listeners; each throw is logged. */
  emit<K extends keyof AgentEventMap>(name: K, event: AgentEventMap[K]): void {
    const handlers = name === 'agent/run-start' ? undefined : this.handlers[name as RunEventName]
    if (handlers) {
      for (const handler of handlers) {
        try {
          handler(event as never)
        } catch (error) {
          this.warn(name, error)
        }
      }
    }
    if (!this.bus.listens(name)) return
    // cordis stops at the first listener that throws: the ones after it miss this event.
    try {
      this.bus.emit(name, event)
    } catch (error) {
      this.warn(name, error)
    }
  }

  /** The run is over: its observers are dropped and no more can subscribe. */
  close(): void {
    this.closed = true
    this.handlers = {}
  }

  private warn(name: string, error: unknown): void {
    this.ctx.logger('agent').warn(`a listener of ${name} failed: ${(error as Error)?.message ?? error}`)
  }
}
