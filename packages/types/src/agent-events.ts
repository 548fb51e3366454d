/**
 * The agent's observation events, as types: a run's start and end, each model request and
 * response, each call's start and end, each batch's end, streamed text. `@rein/agent` emits
 * them (and re-exports every one); a plugin that observes runs (otel) reads them from here
 * without importing the agent. Times are `Date.now()` milliseconds.
 */
import type { AssistantMessage, Message } from './model.js'
import type { ExecutionMode, Json, ToolExecutionResult } from './tool.js'

/** How a batch ended: results committed, the run aborted, or repaired on resume. */
export type TurnOutcome = 'committed' | 'aborted' | 'repaired'

/**
 * When one call's stages happened, in ms since the epoch. A result is committed in model
 * order, so its entry's `at` may be much later than `finalAt`; the body's own run is
 * `bodyStartedAt..bodyEndedAt`, and the rest of `startedAt..finalAt` is waiting (pre-execute
 * turn, approval, guards, the post-execute turn).
 */
export interface CallTiming {
  /** The scheduler started the call: the `at` of its `tool/call` entry. */
  startedAt: number
  /** Its `tools/execute` onion began. Absent when the body never ran (denied, invalid, dependency failed...). */
  bodyStartedAt?: number
  /** Its `tools/execute` onion returned. Absent when the body never ran. */
  bodyEndedAt?: number
  /** Its result was final (post-execute done). */
  finalAt: number
}

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
 * A batch is over: every call has its result, appended in model order with the turn's end
 * (`committed`; their sync may still be under way as the model is asked again, and the run ends
 * `error` should it fail), or `failed` (the scheduler stopped, see the run's error) or `parked`
 * (calls wait for approval, the run ends `awaiting-approval`).
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
