/**
 * Set-up for the otel tests: an SDK tracer provider with an in-memory exporter registered as
 * the global one (undone by `trace.disable()`), a kernel with gated tools, the plugin, and a
 * scripted agent; plus span helpers that read times as milliseconds.
 */
import { trace } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { createAgent, type AgentOptions } from '@rein/agent'
import { createGate, scripted, type ScriptStep } from '@rein/testing'
import * as otel from '../src/index.js'

/** Registers an SDK that keeps every ended span in memory; `processors` run before the exporter's. */
export function recordSpans(processors: SpanProcessor[] = []) {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [...processors, new SimpleSpanProcessor(exporter)] })
  trace.setGlobalTracerProvider(provider)
  return { exporter, spans: () => exporter.getFinishedSpans() }
}

/**
 * A started context with the kernel, gated tools `read` (parallel) and `write` (exclusive), and
 * the plugin; `before` runs just before the plugin is applied (to register listeners ahead of it).
 */
export async function harness(config: otel.OtelInput = {}, before?: (ctx: Context) => void) {
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  const gate = createGate()
  ctx.plugin({
    name: 'tools-under-test', inject: ['tools'],
    apply(c: Context) {
      c.tools.register(gate.tool('read'))
      c.tools.register(gate.tool('write', { safe: false }))
    },
  })
  before?.(ctx)
  const fork = ctx.plugin(otel, config)
  await ctx.start()
  return { ctx, gate, fork }
}

/** An agent named `scout` over `steps`, whose provider reports the model `test-model`. */
export function scriptedAgent(ctx: Context, steps: ScriptStep[], options: Partial<AgentOptions> = {}) {
  const provider = Object.assign(scripted(steps), { model: 'test-model' })
  return createAgent(ctx, { provider, name: 'scout', ...options })
}

/** A span's start and end in ms since the epoch. */
export function times(span: ReadableSpan): { start: number, end: number } {
  const ms = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6
  return { start: ms(span.startTime), end: ms(span.endTime) }
}

/** The one span called `name` whose attribute `key` is `value` (or the only one called `name`). */
export function spanNamed(spans: readonly ReadableSpan[], name: string, key?: string, value?: unknown): ReadableSpan {
  const found = spans.filter((s) => s.name === name && (key === undefined || s.attributes[key] === value))
  if (found.length !== 1) throw new Error(`expected one span "${name}"${key ? ` with ${key}=${String(value)}` : ''}, found ${found.length}`)
  return found[0]
}

/** The id of a span's parent, or undefined for a root span. */
export const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId

/** Resolves after `ms` milliseconds, so that spans measured in whole milliseconds have a length. */
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
