/**
 * Wires runs to spans. The plugin listens to `agent/run-start`; when the
 * run's span records (an SDK is registered and samples it) it observes that run's model
 * requests, responses and call ends through the run's own observer list, and stops at run
 * end. With no SDK the run's span is a no-op, nothing is observed, and no call pays anything.
 * A call outside every run (a `tools/result` with no turn) gets its own `execute_tool` span.
 * Observe-only: it never changes a call, a result or a run, and its own failures are logged.
 * It uses the global tracer provider (`trace.setGlobalTracerProvider`), looked up per run.
 */
import { trace } from '@opentelemetry/api'
import type { Context } from 'cordis'
import { createRedactor } from '@rein/redact'
import { onRunStart } from './agent-events.js'
import type { OtelConfig } from './config.js'
import { RunTrace, toolSpan, type TraceOptions } from './run-trace.js'

/** The plugin name. */
export const name = 'otel'
/** Applied after the kernel, whose tool definitions give `gen_ai.tool.description`. */
export const inject = ['tools']

/** Starts tracing the runs of every agent on this context, for as long as the plugin lives. */
export function apply(ctx: Context, config: OtelConfig) {
  const logger = ctx.logger(name)
  const tools = ctx.tools
  const options: TraceOptions = {
    tracer: trace.getTracer(config.tracerName),
    captureContent: config.captureContent,
    providerName: config.providerName,
    describe: (tool) => tools.get(tool)?.description,
    redact: createRedactor([], { extra: config.redact }),
    maxStringLength: config.maxStringLength,
    maxContentLength: config.maxContentLength,
    maxNameLength: config.maxNameLength,
  }
  const open = new Map<RunTrace, () => void>()

  onRunStart(ctx, (run) => {
    let traced: RunTrace | undefined
    try {
      traced = RunTrace.start(run, options)
    } catch (error) {
      logger.warn(`could not start the span of run ${run.runId}: ${(error as Error)?.message ?? error}`)
    }
    if (!traced) return
    const current = traced
    const stop = run.observe({
      'agent/model-request': (event) => current.modelRequest(event),
      'agent/model-response': (event) => current.modelResponse(event),
      'agent/call-end': (event) => current.callEnd(event),
      'agent/run-end': (event) => {
        open.delete(current)
        current.end(event)
      },
    })
    open.set(current, stop)
  })

  // A call outside every agent run (no turn): a host's call handed over by `ctx.tools.observe`
  // (`rein hook claude-code`), or a direct `ctx.tools.execute`, gets an `execute_tool` span of its own.
  ctx.on('tools/result', (exec, result) => {
    if (exec.turn !== undefined) return
    try {
      toolSpan(options, {
        index: exec.index, id: exec.id, name: exec.name, arguments: exec.arguments, result,
        code: result.isError ? result.error.info?.code : undefined, meta: result.meta,
        timing: { startedAt: exec.startedAt, finalAt: Date.now() },
      })
    } catch (error) {
      logger.warn(`could not record the span of call ${exec.id}: ${(error as Error)?.message ?? error}`)
    }
  })

  ctx.on('dispose', () => {
    for (const [traced, stop] of open) {
      stop()
      try {
        traced.abandon()
      } catch (error) {
        logger.warn(`could not end a run's span: ${(error as Error)?.message ?? error}`)
      }
    }
    open.clear()
  })
}
