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
 *     code, a model-chosen tool name or call id reach a span only redacted. Content is redacted
 *     as a value, string by string, before it is written as JSON (limit.ts);
 *   - every text is then bounded: a span name to `maxNameLength`, each string attribute, status
 *     message and string of content to `maxStringLength`, each content attribute's JSON text to
 *     `maxContentLength`. A call of a tool the harness does not know (`UNKNOWN_TOOL`) is named
 *     plain `execute_tool`: its model-made name is only the `gen_ai.tool.name` attribute.
 */
import { cutText } from '@rein/redact'
import { SpanKind, SpanStatusCode, context, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api'
import type { CallEnd, ModelRequest, ModelResponse, RunEnd, RunStart } from './agent-events.js'
import {
  ATTR, agentEndAttributes, agentStartAttributes, chatEndAttributes, chatStartAttributes, toolAttributes,
} from './attributes.js'
import { inputMessages, outputMessages } from './content.js'
import {
  DEFAULT_MAX_CONTENT_LENGTH, DEFAULT_MAX_NAME_LENGTH, DEFAULT_MAX_STRING_LENGTH, contentText, type ContentLimits,
} from './limit.js'

/** The result code of a call whose tool the harness does not know (`@rein/kernel`'s `UNKNOWN_TOOL`). */
const UNKNOWN_TOOL = 'UNKNOWN_TOOL'

/** What a run's spans need besides the events. */
export interface TraceOptions {
  tracer: Tracer
  captureContent: boolean
  providerName?: string
  /** The registered tool's description, for `gen_ai.tool.description`. */
  describe(name: string): string | undefined
  /** Takes secrets out of a text (`@rein/redact`'s built-in patterns and the config's `redact`). */
  redact(text: string): string
  /** Bound on each string attribute, status message and string of content; 0 = none (default 4096). */
  maxStringLength?: number
  /** Bound on the whole JSON text of a content attribute; 0 = none (default 65536). */
  maxContentLength?: number
  /** Bound on a span name and the tool name attribute; 0 = none (default 256). */
  maxNameLength?: number
}

/** The bounds of `options`, defaults filled in. */
function limitsOf(options: TraceOptions): ContentLimits & { maxNameLength: number } {
  return {
    maxStringLength: options.maxStringLength ?? DEFAULT_MAX_STRING_LENGTH,
    maxContentLength: options.maxContentLength ?? DEFAULT_MAX_CONTENT_LENGTH,
    maxNameLength: options.maxNameLength ?? DEFAULT_MAX_NAME_LENGTH,
  }
}

/** A span name or status message: redacted, then cut to `max`. */
function cleanText(options: TraceOptions, text: string, max: number): string {
  return cutText(options.redact(text), max)
}

/** A content attribute: `value` redacted as a value, written as JSON, bounded. */
function cleanContent(options: TraceOptions, value: unknown): string {
  return contentText(value, options.redact, limitsOf(options))
}

/** Every string (and string in an array) of `attributes` redacted, then cut. */
function cleanAttributes(attributes: Attributes, options: TraceOptions): Attributes {
  const max = limitsOf(options).maxStringLength
  const clean = (text: string) => cleanText(options, text, max)
  const out: Attributes = {}
  for (const [key, value] of Object.entries(attributes)) {
    out[key] = typeof value === 'string' ? clean(value)
      : Array.isArray(value) ? value.map((item: unknown) => (typeof item === 'string' ? clean(item) : item)) as Attributes[string]
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
    const root = options.tracer.startSpan(cleanText(options, `invoke_agent ${run.agent}`, limitsOf(options).maxNameLength), {
      kind: SpanKind.INTERNAL,
      startTime: run.at,
      attributes: cleanAttributes(agentStartAttributes(run.agent, run.runId, options.providerName), options),
    })
    if (!root.isRecording()) {
      root.end()
      return undefined
    }
    return new RunTrace(root, options)
  }

  modelRequest(event: ModelRequest): void {
    const span = this.options.tracer.startSpan(this.name(event.model ? `chat ${event.model}` : 'chat'), {
      kind: SpanKind.CLIENT,
      startTime: event.at,
      attributes: this.clean(chatStartAttributes(event.model, event.step, this.options.providerName)),
    }, this.parent)
    if (this.options.captureContent) span.setAttribute(ATTR.inputMessages, cleanContent(this.options, inputMessages(event.messages)))
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
      span.setAttribute(ATTR.outputMessages, cleanContent(this.options, outputMessages(event.message, event.finishReason)))
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

  /** A status message: redacted and cut. */
  private redact(text: string): string {
    return cleanText(this.options, text, limitsOf(this.options).maxStringLength)
  }

  /** A span name: redacted and cut. */
  private name(text: string): string {
    return cleanText(this.options, text, limitsOf(this.options).maxNameLength)
  }

  private clean(attributes: Attributes): Attributes {
    return cleanAttributes(attributes, this.options)
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
  const limits = limitsOf(options)
  const unknown = result.isError && (event.code ?? result.error.info?.code) === UNKNOWN_TOOL
  const attributes = cleanAttributes(toolAttributes(event, unknown ? undefined : options.describe(event.name)), options)
  attributes[ATTR.toolName] = cleanText(options, event.name, limits.maxNameLength)
  const span = options.tracer.startSpan(unknown ? 'execute_tool' : cleanText(options, `execute_tool ${event.name}`, limits.maxNameLength), {
    kind: SpanKind.INTERNAL,
    startTime: timing.bodyStartedAt ?? timing.startedAt,
    attributes,
  }, parent)
  if (options.captureContent) {
    span.setAttribute(ATTR.toolArguments, cleanContent(options, event.arguments))
    if (!result.isError) span.setAttribute(ATTR.toolResult, cleanContent(options, result.value))
  }
  if (result.isError) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: cleanText(options, String(result.error.message), limits.maxStringLength) })
  }
  span.end(timing.bodyStartedAt === undefined ? timing.finalAt : (timing.bodyEndedAt ?? timing.finalAt))
}
