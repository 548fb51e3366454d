/**
 * Span names and attributes, one function per span kind, following the OpenTelemetry GenAI
 * semantic conventions of semantic-conventions v1.41.0 (Development status) plus rein's own
 * `rein.*` facts. Pure: they read an event and return attributes; nothing here touches a span.
 * A call's result code is `error.type` on failure and absent on success.
 */
import type { Attributes } from '@opentelemetry/api'
import type { CallEnd, ModelResponse, RunEnd } from './agent-events.js'

/** The attribute keys used, in one place. */
export const ATTR = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  requestModel: 'gen_ai.request.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  errorType: 'error.type',
  runId: 'rein.run.id',
  runOutcome: 'rein.run.outcome',
  runSteps: 'rein.run.steps',
  step: 'rein.step',
  batchIndex: 'rein.batch.index',
  callIndex: 'rein.call.index',
  callMode: 'rein.call.mode',
  callDuration: 'rein.call.duration_ms',
  resultCode: 'rein.result.code',
  attempts: 'rein.retry.attempts',
  cacheHit: 'rein.cache.hit',
  cacheShared: 'rein.cache.shared',
  spillLocator: 'rein.spill.locator',
  spillBytes: 'rein.spill.bytes',
} as const

/** `error.type` for a thrown error: its string `code`, else its name, else `_OTHER`. */
export function errorType(error: unknown): string {
  const { code, name } = (error ?? {}) as { code?: unknown, name?: unknown }
  if (typeof code === 'string' && code !== '') return code
  if (typeof name === 'string' && name !== '' && name !== 'Error') return name
  return '_OTHER'
}

/** Set at the start of an `invoke_agent` span (the conventions ask for these at creation, for samplers). */
export function agentStartAttributes(agent: string, runId: string, provider: string | undefined): Attributes {
  const attributes: Attributes = { [ATTR.operation]: 'invoke_agent', [ATTR.agentName]: agent, [ATTR.runId]: runId }
  if (provider) attributes[ATTR.provider] = provider
  return attributes
}

/** Set when the run ends. */
export function agentEndAttributes(event: RunEnd, usage: { input: number, output: number, reported: boolean }): Attributes {
  const attributes: Attributes = { [ATTR.runOutcome]: event.outcome, [ATTR.runSteps]: event.steps }
  if (usage.reported) {
    attributes[ATTR.inputTokens] = usage.input
    attributes[ATTR.outputTokens] = usage.output
  }
  if (event.outcome === 'error') attributes[ATTR.errorType] = errorType(event.error)
  return attributes
}

/** Set at the start of a `chat` span. */
export function chatStartAttributes(model: string | undefined, step: number, provider: string | undefined): Attributes {
  const attributes: Attributes = { [ATTR.operation]: 'chat', [ATTR.step]: step }
  if (provider) attributes[ATTR.provider] = provider
  if (model) attributes[ATTR.requestModel] = model
  return attributes
}

/** Set when the model answered (or failed). */
export function chatEndAttributes(event: ModelResponse): Attributes {
  const attributes: Attributes = {}
  if (event.finishReason) attributes[ATTR.finishReasons] = [event.finishReason]
  const usage = event.usage
  if (typeof usage?.inputTokens === 'number') attributes[ATTR.inputTokens] = usage.inputTokens
  if (typeof usage?.outputTokens === 'number') attributes[ATTR.outputTokens] = usage.outputTokens
  if (event.error) attributes[ATTR.errorType] = errorType(event.error)
  return attributes
}

/** Everything on an `execute_tool` span, from the call's end event. */
export function toolAttributes(event: CallEnd, description: string | undefined): Attributes {
  const attributes: Attributes = {
    [ATTR.operation]: 'execute_tool',
    [ATTR.toolName]: event.name,
    [ATTR.toolCallId]: event.id,
    [ATTR.toolType]: 'function',
    [ATTR.callDuration]: event.timing.finalAt - event.timing.startedAt,
  }
  if (event.turn !== undefined) attributes[ATTR.batchIndex] = event.turn
  if (event.index !== undefined) attributes[ATTR.callIndex] = event.index
  if (description) attributes[ATTR.toolDescription] = description
  if (event.mode) attributes[ATTR.callMode] = event.mode
  if (event.result.isError) {
    const code = event.code ?? event.result.error.info?.code ?? '_OTHER'
    attributes[ATTR.errorType] = code
    attributes[ATTR.resultCode] = code
  }
  const meta = event.meta ?? event.result.meta
  if (meta) {
    if (typeof meta.attempts === 'number') attributes[ATTR.attempts] = meta.attempts
    if (typeof meta.cacheHit === 'boolean') attributes[ATTR.cacheHit] = meta.cacheHit
    if (typeof meta.cacheShared === 'boolean') attributes[ATTR.cacheShared] = meta.cacheShared
    const spilled = meta.spilled as { locator?: unknown, bytes?: unknown } | null | undefined
    if (typeof spilled?.locator === 'string') attributes[ATTR.spillLocator] = spilled.locator
    if (typeof spilled?.bytes === 'number') attributes[ATTR.spillBytes] = spilled.bytes
  }
  return attributes
}
