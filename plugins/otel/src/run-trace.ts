/**
 * The spans of one agent run. Guarantees:
 *   - one `invoke_agent` span (INTERNAL) per run, parented on the context active when the run
 *     began; every `chat` (CLIENT) and `execute_tool` (INTERNAL) span of the run is its child,
 *     parented explicitly through `trace.setSpan` (no context manager needed);
 *   - a tool span covers the call's body: from its `tools/execute` onion's start to its end as
 *     the agent timed them (the call's start and final result when the body never ran), so
 *     parallel calls are overlapping siblings and waiting for a post-execute turn is not counted;
 *   - every span started here is ended: chat spans by their response or with the run, the run
 *     span at run end or `abandon()`. All times are the agent's `Date.now()` marks;
 *   - every text a span carries (its name, each string attribute, its status message, content)
 *     goes through `redact` first, as the audit log's do: a tool's error text, its own error
 *     code, a model-chosen tool name or call id reach a span only redacted.
 */
import { SpanKind, SpanStatusCode, context, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api'
import type { CallEnd, ModelRequest, ModelResponse, RunEnd, RunStart } from './agent-events.js'
import {
  ATTR, agentEndAttributes, agentStartAttributes, chatEndAttributes, chatStartAttributes, toolAttributes,
} from './attributes.js'
import { inputMessages, json, outputMessages } from './content.js'

/** What a run's spans need besides the events. */
export interface TraceOptions {
  tracer: Tracer
  captureContent: boolean
  providerName?: string
  /** The registered tool's description, for `gen_ai.tool.description`. */
  describe(name: string): string | undefined
  /** Takes secrets out of a text (`@rein/redact`'s built-in patterns and the config's `redact`). */
  redact(text: string): string
}

/** Every string (and string in an array) of `attributes` redacted. */
function cleanAttributes(attributes: Attributes, redact: (text: string) => string): Attributes {
  const out: Attributes = {}
  for (const [key, value] of Object.entries(attributes)) {
    out[key] = typeof value === 'string' ? redact(value)
      : Array.isArray(value) ? value.map((item: unknown) => (typeof item === 'string' ? redact(item) : item)) as Attributes[string]
        : value
  }
  return out
}

export class RunTrace {
  private readonly parent: Context
  private readonly chats = new Map<number, Span>()
  private readonly usage = { input: 0, output: 0, reported: false }

  private constructor(private readonly root: Span, private readonly options: TraceOptions) {
    this.parent = trace.setSpan(context.active(), root)
  }

  /** Starts the run's span; undefined when nothing records it (no SDK, or not sampled). */
  static start(run: RunStart, options: TraceOptions): RunTrace | undefined {
    const root = options.tracer.startSpan(options.redact(`invoke_agent ${run.agent}`), {
      kind: SpanKind.INTERNAL,
      startTime: run.at,
      attributes: cleanAttributes(agentStartAttributes(run.agent, run.runId, options.providerName), options.redact),
    })
    if (!root.isRecording()) {
      root.end()
      return undefined
    }
    return new RunTrace(root, options)
  }

  modelRequest(event: ModelRequest): void {
    const span = this.options.tracer.startSpan(this.redact(event.model ? `chat ${event.model}` : 'chat'), {
      kind: SpanKind.CLIENT,
      startTime: event.at,
      attributes: this.clean(chatStartAttributes(event.model, event.step, this.options.providerName)),
    }, this.parent)
    if (this.options.captureContent) span.setAttribute(ATTR.inputMessages, this.redact(inputMessages(event.messages)))
    this.chats.set(event.step, span)
  }

  modelResponse(event: ModelResponse): void {
    const span = this.chats.get(event.step)
    if (!span) return
    this.chats.delete(event.step)
    const usage = event.usage
    if (typeof usage?.inputTokens === 'number' || typeof usage?.outputTokens === 'number') {
      this.usage.reported = true
      this.usage.input += usage.inputTokens ?? 0
      this.usage.output += usage.outputTokens ?? 0
    }
    span.setAttributes(this.clean(chatEndAttributes(event)))
    if (this.options.captureContent && event.message) {
      span.setAttribute(ATTR.outputMessages, this.redact(outputMessages(event.message, event.finishReason)))
    }
    if (event.error) span.setStatus({ code: SpanStatusCode.ERROR, message: this.redact(String(event.error.message)) })
    span.end(event.at)
  }

  callEnd(event: CallEnd): void {
    toolSpan(this.options, event, this.parent)
  }

  end(event: RunEnd): void {
    this.closeChats(event.at)
    this.root.setAttributes(this.clean(agentEndAttributes(event, this.usage)))
    if (event.outcome === 'error') {
      const message = event.error?.message
      this.root.setStatus({ code: SpanStatusCode.ERROR, message: message === undefined ? undefined : this.redact(String(message)) })
    }
    this.root.end(event.at)
  }

  /** The plugin is going away mid-run: end what is open, marked as cut short. */
  abandon(): void {
    const now = Date.now()
    this.closeChats(now)
    this.root.setAttribute(ATTR.runOutcome, 'unknown')
    this.root.end(now)
  }

  private redact(text: string): string {
    return this.options.redact(text)
  }

  private clean(attributes: Attributes): Attributes {
    return cleanAttributes(attributes, this.options.redact)
  }

  private closeChats(at: number): void {
    for (const span of this.chats.values()) span.end(at)
    this.chats.clear()
  }
}

/**
 * The `execute_tool` span of one finished call: a child of `parent` (the run's context), or,
 * for a call outside any run (a host's call handed over by `ctx.tools.observe`), of the
 * context active when it is recorded.
 */
export function toolSpan(options: TraceOptions, event: CallEnd, parent?: Context): void {
  const { timing, result } = event
  const span = options.tracer.startSpan(options.redact(`execute_tool ${event.name}`), {
    kind: SpanKind.INTERNAL,
    startTime: timing.bodyStartedAt ?? timing.startedAt,
    attributes: cleanAttributes(toolAttributes(event, options.describe(event.name)), options.redact),
  }, parent)
  if (options.captureContent) {
    span.setAttribute(ATTR.toolArguments, options.redact(json(event.arguments)))
    if (!result.isError) span.setAttribute(ATTR.toolResult, options.redact(json(result.value)))
  }
  if (result.isError) span.setStatus({ code: SpanStatusCode.ERROR, message: options.redact(String(result.error.message)) })
  span.end(timing.bodyStartedAt === undefined ? timing.finalAt : (timing.bodyEndedAt ?? timing.finalAt))
}
