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
import type {
  AgentEventMap, CallEndEvent, CallStartEvent, ModelRequestEvent, ModelResponseEvent, RunEndEvent, RunEventName, RunObserver,
  RunStartEvent, TextDeltaEvent, TurnEndEvent,
} from '@rein/types'
import { eventBus, type EventBus } from '@rein/cordis-internals'

// The event types live in `@rein/types` (a plugin reads them without importing the agent);
// exported from here with the cordis declarations below, which type `ctx.on('agent/...')`.
export type {
  AgentEventMap, RunFacts, RunStartEvent, RunEndEvent, ModelRequestEvent, ModelResponseEvent,
  CallStartEvent, CallEndEvent, TurnEndEvent, TextDeltaEvent, RunEventName, RunObserver,
} from '@rein/types'

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
