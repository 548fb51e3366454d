/**
 * The agent's observation events as this plugin reads them. Plugins never import the agent
 * (DESIGN.md §1): the event types come from `@rein/types`, which the agent emits them as.
 * Times are `Date.now()` milliseconds, the clock of the agent's session log.
 */
import type { Context } from 'cordis'
import type { CallEndEvent, RunFacts, RunStartEvent } from '@rein/types'

export type {
  RunStartEvent as RunStart, RunEndEvent as RunEnd, ModelRequestEvent as ModelRequest, ModelResponseEvent as ModelResponse,
} from '@rein/types'

/**
 * A finished call, as its span records it: an `agent/call-end` event, or a call outside every
 * run (a host's call handed over by `ctx.tools.observe`), which has no run, turn or index.
 */
export type CallEnd = Omit<CallEndEvent, keyof RunFacts | 'turn' | 'index' | 'durationMs'> & Partial<Pick<CallEndEvent, 'turn' | 'index'>>

/** `ctx.on('agent/run-start', listener)`, typed without the agent's declarations. */
export function onRunStart(ctx: Context, listener: (run: RunStartEvent) => void): () => boolean {
  return (ctx as unknown as { on(name: 'agent/run-start', listener: (run: RunStartEvent) => void): () => boolean })
    .on('agent/run-start', listener)
}
