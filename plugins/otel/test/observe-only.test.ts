import { afterEach, describe, expect, it } from 'vitest'
import { trace } from '@opentelemetry/api'
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base'
import type { Context } from 'cordis'
import { callMessage, captureWarnings, textMessage, toolCall } from '@rein/testing'
import { harness, recordSpans, scriptedAgent, spanNamed } from './helpers.js'

afterEach(() => trace.disable())

/** Counts the handlers attached to each run (must be registered before the plugin). */
function countObservers(ctx: Context) {
  const counts = { runs: 0, observers: 0 }
  ctx.on('agent/run-start', (run) => {
    counts.runs++
    const observe = run.observe
    run.observe = (observer) => {
      counts.observers++
      return observe(observer)
    }
  })
  return counts
}

/** One batch: a, b parallel reads that succeed; c a write that fails. Returns the run's outcome. */
async function runBatch(ctx: Context, gate: Awaited<ReturnType<typeof harness>>['gate']) {
  gate.release('a')
  gate.release('b')
  gate.fail('c', 'disk full')
  const outcome = await scriptedAgent(ctx, [
    callMessage([toolCall('a', 'read'), toolCall('b', 'read'), toolCall('c', 'write')]), textMessage('done'),
  ]).run('go')
  return { kind: outcome.kind, tools: outcome.messages.filter((m) => m.role === 'tool').map((m) => `${m.toolCallId}:${m.isError}`) }
}

describe('with no SDK registered', () => {
  it('makes no spans, attaches nothing to the run, and logs nothing', async () => {
    let counts = { runs: 0, observers: 0 }
    const probe = await harness({}, (ctx) => { counts = countObservers(ctx) })
    const warnings = [captureWarnings('otel', probe.ctx), captureWarnings('agent', probe.ctx)]
    try {
      expect(await runBatch(probe.ctx, probe.gate)).toEqual({ kind: 'completed', tools: ['a:false', 'b:false', 'c:true'] })
    } finally {
      for (const w of warnings) w.stop()
    }
    expect(counts).toEqual({ runs: 1, observers: 0 })
    expect(warnings.flatMap((w) => w.warnings)).toEqual([])
  })

  it('starts tracing at the next run once an SDK is registered', async () => {
    const { ctx, gate } = await harness()
    await scriptedAgent(ctx, [textMessage('untraced')]).run('go')
    const { spans } = recordSpans()
    expect(await runBatch(ctx, gate)).toMatchObject({ kind: 'completed' })
    expect(spans().filter((s) => s.name.startsWith('execute_tool'))).toHaveLength(3)
  })
})

describe('failures inside the SDK never reach the run', () => {
  it('keeps the run\'s outcome when the exporter throws, and when span processors throw', async () => {
    const throwingExporter: SpanExporter = {
      export: () => { throw new Error('exporter down') },
      shutdown: async () => {},
    }
    const throwingProcessor: SpanProcessor = {
      onStart: () => { throw new Error('onStart bug') },
      onEnd: () => { throw new Error('onEnd bug') },
      forceFlush: async () => {},
      shutdown: async () => {},
    }
    const { BasicTracerProvider, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base')
    for (const processor of [new SimpleSpanProcessor(throwingExporter), throwingProcessor]) {
      trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [processor] }))
      const { ctx, gate } = await harness()
      const warnings = [captureWarnings('otel', ctx), captureWarnings('agent', ctx)]
      try {
        expect(await runBatch(ctx, gate)).toEqual({ kind: 'completed', tools: ['a:false', 'b:false', 'c:true'] })
      } finally {
        for (const w of warnings) w.stop()
      }
      if (processor === throwingProcessor) {
        expect(warnings[0].warnings).toEqual([expect.stringMatching(/could not start the span of run .*: onStart bug/)])
      }
      trace.disable()
    }
  })
})

describe('disposing the plugin mid-run', () => {
  it('ends the run\'s open span, marked unknown, and records nothing after', async () => {
    const { spans } = recordSpans()
    const { ctx, gate, fork } = await harness()
    const run = scriptedAgent(ctx, [callMessage([toolCall('a', 'read')]), textMessage('done')]).run('go')
    await gate.whenStarted('a')
    fork.dispose()
    gate.release('a')
    expect((await run).kind).toBe('completed')
    expect(spans().map((s) => s.name).sort()).toEqual(['chat test-model', 'invoke_agent scout'])
    expect(spanNamed(spans(), 'invoke_agent scout').attributes['rein.run.outcome']).toBe('unknown')
  })
})
