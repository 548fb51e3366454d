/**
 * A run's progress as its submitter sees it: the agent's observation events, cut down to plain
 * JSON (`RunProgress`) and sent as BullMQ job progress (an array of the events since the last
 * send), so they reach every watcher of the queue in order through the queue's event stream
 * and survive a watcher reconnecting. Best effort: a progress event that cannot be sent is
 * dropped and never fails the run. Runs that share a harness are told apart by their agent's
 * name, which the worker makes unique among the runs in progress (`agents.ts`).
 */
import type { Context } from 'cordis'
import type { AgentEventMap } from '@rein/agent'

/** One progress event of a run (`at`: the worker's `Date.now()`). */
export type RunProgress =
  | {
    kind: 'started', at: number, worker: string, attempt: number,
    /** An earlier attempt had begun this run: the session goes on from where it stopped. */
    resumed: boolean,
    /** A continuation: the run adds no message and goes on with the session (a parked turn, once answered). */
    continuation?: true,
    /** Calls an earlier attempt left without a result, settled as TOOL_OUTCOME_UNKNOWN / TOOL_NOT_STARTED. */
    repaired: { outcomeUnknown: number, notStarted: number },
  }
  /** This attempt could not open the session (`reason`); the run is tried again shortly. */
  | { kind: 'waiting', at: number, worker: string, reason: string }
  /** What the model said alongside the tool calls of `turn` (its final answer is the run's result). */
  | { kind: 'model', at: number, turn: number, text: string }
  | { kind: 'call-start', at: number, turn: number, index: number, id: string, name: string }
  | { kind: 'call-end', at: number, turn: number, index: number, id: string, name: string, ok: boolean, code?: string, durationMs: number }
  | { kind: 'turn-end', at: number, turn: number, calls: number, outcome: string }

/**
 * Sends each progress event of the agent runs on `ctx` to `send` — only those of the agent named
 * `agent` when given, as when the runs of several agents share `ctx` — and returns the unsubscribe.
 */
export function observeRuns(ctx: Context, send: (event: RunProgress) => void, agent?: string): () => void {
  return ctx.on('agent/run-start', (run: AgentEventMap['agent/run-start']) => {
    if (agent !== undefined && run.agent !== agent) return
    run.observe({
      'agent/model-response': (e) => {
        const text = e.message?.toolCalls?.length ? e.message.content.trim() : ''
        if (text !== '') send({ kind: 'model', at: e.at, turn: e.turn, text })
      },
      'agent/call-start': (e) => send({ kind: 'call-start', at: e.at, turn: e.turn, index: e.index, id: e.id, name: e.name }),
      'agent/call-end': (e) => send({
        kind: 'call-end', at: Date.now(), turn: e.turn, index: e.index, id: e.id, name: e.name,
        ok: !e.result.isError, ...(e.code ? { code: e.code } : {}), durationMs: Math.round(e.durationMs),
      }),
      'agent/turn-end': (e) => send({ kind: 'turn-end', at: Date.now(), turn: e.turn, calls: e.calls, outcome: e.outcome }),
    })
  })
}

/** One line for a person watching (a line per line of the model's words): `→ read_file (call_1)`, `✓ read_file (call_1) 52 ms`. */
export function describeProgress(event: RunProgress): string {
  switch (event.kind) {
    case 'started': {
      const { outcomeUnknown, notStarted } = event.repaired
      const how = event.continuation ? `continued (attempt ${event.attempt})` : event.resumed ? `resumed (attempt ${event.attempt})` : 'started'
      const repairs = outcomeUnknown + notStarted === 0 ? ''
        : `; calls left by the earlier attempt: ${outcomeUnknown} in flight (TOOL_OUTCOME_UNKNOWN, not rerun), ${notStarted} not started (TOOL_NOT_STARTED)`
      return `${how} on ${event.worker}${repairs}`
    }
    case 'model':
      return event.text.split('\n').map((line) => `model: ${line}`).join('\n')
    case 'waiting':
      return `waiting: ${event.reason}; the run is tried again shortly`
    case 'call-start':
      return `→ ${event.name} (${event.id})`
    case 'call-end':
      return `${event.ok ? '✓' : '✗'} ${event.name} (${event.id})${event.code ? ` ${event.code}` : ''} ${event.durationMs} ms`
    case 'turn-end':
      return `turn ${event.turn}: ${event.calls} call${event.calls === 1 ? '' : 's'} ${event.outcome}`
    default:
      return unknownEvent(event)
  }
}

/** A progress event from a newer worker than this submitter: shown as its kind, never thrown. */
function unknownEvent(event: never): string {
  return `progress: ${String((event as { kind?: unknown }).kind)}`
}
