/**
 * The agent's observation events as this plugin reads them. Plugins never import the agent
 * (DESIGN.md §1), so these are the fields it relies on, kept structurally in step with
 * `@rein/agent`'s `events.ts` (its tests run the real agent against them). Times are
 * `Date.now()` milliseconds, the clock of the agent's session log.
 */
import type { Context } from 'cordis'
import type { AssistantMessage, ExecutionMode, Json, Message, ToolExecutionResult } from '@rein/kernel'

export interface RunStart {
  runId: string
  agent: string
  at: number
  observe(observer: RunObserver): () => void
}

export interface RunEnd {
  runId: string
  at: number
  outcome: 'completed' | 'max-turns' | 'aborted' | 'error' | 'stopped' | 'awaiting-approval'
  error?: Error
  steps: number
}

export interface ModelRequest {
  step: number
  turn: number
  at: number
  model?: string
  messages: readonly Message[]
}

export interface ModelResponse {
  step: number
  at: number
  message?: AssistantMessage
  finishReason?: string
  usage?: { inputTokens?: number, outputTokens?: number }
  error?: Error
}

export interface CallEnd {
  /** Absent for a call outside an agent run (a host's call handed over by `ctx.tools.observe`). */
  turn?: number
  index?: number
  id: string
  name: string
  arguments: unknown
  mode?: ExecutionMode
  result: ToolExecutionResult
  code?: string
  meta?: Record<string, Json>
  timing: { startedAt: number, bodyStartedAt?: number, bodyEndedAt?: number, finalAt: number }
}

/** The handlers a run accepts (`run.observe`). */
export interface RunObserver {
  'agent/model-request'?(event: ModelRequest): void
  'agent/model-response'?(event: ModelResponse): void
  'agent/call-end'?(event: CallEnd): void
  'agent/run-end'?(event: RunEnd): void
}

/** `ctx.on('agent/run-start', listener)`, typed without the agent's declarations. */
export function onRunStart(ctx: Context, listener: (run: RunStart) => void): () => boolean {
  return (ctx as unknown as { on(name: 'agent/run-start', listener: (run: RunStart) => void): () => boolean })
    .on('agent/run-start', listener)
}
