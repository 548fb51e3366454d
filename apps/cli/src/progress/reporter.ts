/**
 * Connects a run to its progress output: it listens to the agent's events on the Context
 * (`agent/model-response`, `agent/call-start`, `agent/call-end`, `agent/turn-end`,
 * `agent/text-delta`), records each call in the stats and tells the view, including what the
 * model said alongside its tool calls (streamed or not). It only observes; the returned
 * function removes every listener it added.
 */
import type { Context } from 'cordis'
import type { CallEndEvent, CallStartEvent, ModelResponseEvent, TextDeltaEvent, TurnEndEvent } from '@rein/agent'
import type { RunStats } from './stats.js'
import type { LiveCall, ProgressView } from './view.js'

/** Starts reporting; returns the function that stops it. `clock` is monotonic milliseconds. */
export function attachProgress(ctx: Context, view: ProgressView, stats: RunStats, clock: () => number = () => performance.now()): () => void {
  const live = new Map<string, LiveCall>()
  const key = (turn: number, index: number) => `${turn}:${index}`

  const onStart = (event: CallStartEvent) => {
    const call: LiveCall = {
      turn: event.turn, index: event.index, id: event.id, name: event.name,
      arguments: event.arguments, mode: modeOf(ctx, event), startedAt: clock(),
    }
    live.set(key(event.turn, event.index), call)
    stats.started(event.turn, event.index, event.id, event.name, call.startedAt)
    view.started(call)
  }
  const onEnd = (event: CallEndEvent) => {
    const call = live.get(key(event.turn, event.index))
    if (!call) return
    call.result = event.result
    call.durationMs = ranMs(event)
    stats.ended(event.turn, event.index, event.result, call.durationMs, clock())
    view.ended(call)
  }
  const onTurnEnd = (event: TurnEndEvent) => {
    const calls = [...live.values()].filter((c) => c.turn === event.turn).sort((a, b) => a.index - b.index)
    for (const call of calls) live.delete(key(call.turn, call.index))
    view.turnEnded({ turn: event.turn, outcome: event.outcome, calls, ...stats.timing(event.turn) })
  }
  const onText = (event: TextDeltaEvent) => view.text(event.text)
  // The final answer is the view's `answer`; the words that come with tool calls are narration.
  const onResponse = (event: ModelResponseEvent) => {
    if (event.message?.toolCalls?.length && event.message.content.trim() !== '') view.note(event.message.content)
  }

  const offs = [
    ctx.on('agent/model-response', onResponse),
    ctx.on('agent/call-start', onStart),
    ctx.on('agent/call-end', onEnd),
    ctx.on('agent/turn-end', onTurnEnd),
    ctx.on('agent/text-delta', onText),
  ]
  return () => { for (const off of offs) off() }
}

/** The kernel's classification of the call as it ran; exclusive if it cannot say (fail closed, as the scheduler does). */
export function modeOf(ctx: Context, call: { id: string, name: string, arguments: unknown }): 'parallel' | 'exclusive' {
  try {
    return ctx.tools.executionMode({ id: call.id, name: call.name, arguments: call.arguments })
  } catch {
    return 'exclusive'
  }
}

/**
 * How long a call's body ran (what "run one by one" would cost), or, for a call whose body
 * never ran, its whole time: `durationMs` also counts the wait for its post-execute turn.
 */
function ranMs(event: CallEndEvent): number {
  const { bodyStartedAt, bodyEndedAt } = event.timing
  return bodyStartedAt !== undefined && bodyEndedAt !== undefined ? bodyEndedAt - bodyStartedAt : event.durationMs
}
