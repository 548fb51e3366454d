/**
 * A cordis event bus read without tracing: whether a name has listeners, and emitting to them.
 * The agent emits several events per tool call; a cordis dispatch costs tens of microseconds
 * even with no listener, so it builds an event only when someone listens. cordis has no public
 * way to ask, so this reads its lifecycle's `_hooks` table (updated in place), the one place
 * the agent relies on cordis beyond its documented API; `test/event-bus.test.ts` pins it.
 * Both are read from the lifecycle behind cordis' tracing proxy: each property read through
 * the proxy builds a shadow context and a proxy (a few µs, per agent run), and an emit with a
 * name first (no `this` for the listeners) needs none of it.
 */
import type { Context } from 'cordis'
import { serviceTarget } from './cordis-internals.js'

export interface EventBus {
  /** Whether emitting `name` now would reach a listener (`internal/event` watchers count too). */
  listens(name: string): boolean
  /** Emits `name` to cordis listeners (cordis stops at the first one that throws; that throw is rethrown). */
  emit(name: string, ...args: unknown[]): void
}

/** `ctx`'s event bus, looked up once. */
export function eventBus(ctx: Context): EventBus {
  const lifecycle = serviceTarget(ctx.lifecycle) as unknown as {
    _hooks: Record<string, unknown[] | undefined>
    emit(name: string, ...args: unknown[]): void
  }
  const hooks = lifecycle._hooks
  return {
    listens: (name) => (hooks[name]?.length ?? 0) > 0 || (hooks['internal/event']?.length ?? 0) > 0,
    emit: (name, ...args) => lifecycle.emit(name, ...args),
  }
}
