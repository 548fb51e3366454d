import { afterEach, describe, expect, it } from 'vitest'
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace, type Context, type ContextManager } from '@opentelemetry/api'
import type { AssistantMessage } from '@rein/kernel'
import { callMessage, textMessage, toolCall } from '@rein/testing'
import { harness, parentOf, pause, recordSpans, scriptedAgent, spanNamed, times } from './helpers.js'

afterEach(() => {
  trace.disable()
  context.disable()
})

/** The smallest context manager: `with` sets the active context for the synchronous call. */
class StackContext implements ContextManager {
  private current: Context = ROOT_CONTEXT
  active() { return this.current }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A) {
    const previous = this.current
    this.current = ctx
    try {
      return fn.call(thisArg, ...args)
    } finally {
      this.current = previous
    }
  }
  bind<T>(_ctx: Context, target: T) { return target }
  enable() { return this }
  disable() { return this }
}

/** The model's answers: two parallel reads and a write in one batch, then a final text. */
function script(): AssistantMessage[] {
  const calls = callMessage([toolCall('a', 'read', { path: 'x' }), toolCall('b', 'read', { path: 'y' }), toolCall('c', 'write')])
  return [
    Object.assign(calls, { usage: { inputTokens: 40, outputTokens: 12 }, finishReason: 'tool_calls' }),
    Object.assign(textMessage('all done'), { usage: { inputTokens: 90, outputTokens: 5 }, finishReason: 'stop' }),
  ]
}

describe('spans of a run', () => {
  it('makes invoke_agent with chat and execute_tool children: exact names, kinds, attributes', async () => {
    const { spans } = recordSpans()
    const { ctx, gate } = await harness({ providerName: 'test-provider' })
    const agent = scriptedAgent(ctx, script())
    const run = agent.run('go')
    await gate.whenRunning(2)
    await pause(5)
    gate.release('a')
    gate.release('b')
    gate.fail('c', 'disk full')
    expect((await run).kind).toBe('completed')

    const all = spans()
    expect(all.map((s) => s.name).sort()).toEqual([
      'chat test-model', 'chat test-model', 'execute_tool read', 'execute_tool read', 'execute_tool write', 'invoke_agent scout',
    ])
    const root = spanNamed(all, 'invoke_agent scout')
    expect(parentOf(root)).toBeUndefined()
    expect(root.kind).toBe(SpanKind.INTERNAL)
    expect(root.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'scout', 'gen_ai.provider.name': 'test-provider',
      'rein.run.id': expect.stringMatching(/^[0-9a-f-]{36}$/), 'rein.run.outcome': 'completed', 'rein.run.steps': 2,
      'gen_ai.usage.input_tokens': 130, 'gen_ai.usage.output_tokens': 17,
    })
    for (const span of all) {
      if (span !== root) expect(parentOf(span)).toBe(root.spanContext().spanId)
      expect(span.spanContext().traceId).toBe(root.spanContext().traceId)
    }

    const chat1 = spanNamed(all, 'chat test-model', 'rein.step', 1)
    expect(chat1.kind).toBe(SpanKind.CLIENT)
    expect(chat1.attributes).toEqual({
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'test-provider', 'gen_ai.request.model': 'test-model', 'rein.step': 1,
      'gen_ai.response.finish_reasons': ['tool_calls'], 'gen_ai.usage.input_tokens': 40, 'gen_ai.usage.output_tokens': 12,
    })
    expect(spanNamed(all, 'chat test-model', 'rein.step', 2).attributes['gen_ai.response.finish_reasons']).toEqual(['stop'])

    const [a, b, c] = ['a', 'b', 'c'].map((id) => spanNamed(all, id === 'c' ? 'execute_tool write' : 'execute_tool read', 'gen_ai.tool.call.id', id))
    expect(a.kind).toBe(SpanKind.INTERNAL)
    expect(a.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'read', 'gen_ai.tool.call.id': 'a', 'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Gated test tool "read": returns when the test releases the call.',
      'rein.batch.index': 1, 'rein.call.index': 0, 'rein.call.mode': 'parallel', 'rein.call.duration_ms': expect.any(Number),
    })
    expect(a.status.code).toBe(SpanStatusCode.UNSET)
    expect(c.attributes).toMatchObject({
      'gen_ai.tool.name': 'write', 'gen_ai.tool.call.id': 'c', 'rein.call.index': 2, 'rein.call.mode': 'exclusive',
      'error.type': 'TOOL_FAILED', 'rein.result.code': 'TOOL_FAILED',
    })
    expect(c.status).toEqual({ code: SpanStatusCode.ERROR, message: 'disk full' })
    expect(a.attributes['error.type']).toBeUndefined()

    // The parallel reads overlap; the exclusive write starts after both; all inside the run, after the first answer.
    const [ta, tb, tc] = [a, b, c].map(times)
    expect(ta.start < tb.end && tb.start < ta.end).toBe(true)
    expect(Math.min(ta.end, tb.end) - Math.max(ta.start, tb.start)).toBeGreaterThan(0)
    expect(tc.start).toBeGreaterThanOrEqual(Math.max(ta.end, tb.end))
    const [tr, tchat1, tchat2] = [root, chat1, spanNamed(all, 'chat test-model', 'rein.step', 2)].map(times)
    expect(Math.min(ta.start, tb.start)).toBeGreaterThanOrEqual(tchat1.end)
    expect(tchat2.start).toBeGreaterThanOrEqual(tc.end)
    for (const t of [ta, tb, tc, tchat1, tchat2]) expect(t.start >= tr.start && t.end <= tr.end).toBe(true)
  })

  it('gives a call outside every run (one a host ran, handed over by ctx.tools.observe) an execute_tool span of its own', async () => {
    const { spans } = recordSpans()
    const { ctx } = await harness()
    await ctx.tools.observe({ id: 'toolu_1', name: 'Bash', arguments: { command: 'ls' } }, { isError: false, value: 'ok', content: [{ type: 'text', text: 'ok' }] })
    await ctx.tools.observe({ id: 'toolu_2', name: 'Bash', arguments: { command: 'rm x' } },
      { isError: true, content: [{ type: 'text', text: 'Error: no' }], error: { message: 'no', info: { code: 'TOOL_DENIED' } } })
    const ok = spanNamed(spans(), 'execute_tool Bash', 'gen_ai.tool.call.id', 'toolu_1')
    expect([parentOf(ok), ok.kind, ok.status.code, ok.attributes['gen_ai.operation.name']]).toEqual([undefined, SpanKind.INTERNAL, SpanStatusCode.UNSET, 'execute_tool'])
    const denied = spanNamed(spans(), 'execute_tool Bash', 'gen_ai.tool.call.id', 'toolu_2')
    expect([denied.status.code, denied.attributes['rein.result.code']]).toEqual([SpanStatusCode.ERROR, 'TOOL_DENIED'])
  })

  it('records rein facts plugins put in exec.meta: retry attempts, cache hit, spill', async () => {
    const { spans } = recordSpans()
    const { ctx, gate } = await harness()
    ctx.plugin({
      name: 'facts', inject: ['tools'],
      apply: (c: typeof ctx) => c.on('tools/execute', async (exec, next) => {
        Object.assign(exec.meta, { attempts: 3, cacheHit: false, spilled: { locator: 'spill://1', bytes: 60000 } })
        return next()
      }),
    })
    gate.release('a')
    await scriptedAgent(ctx, [callMessage([toolCall('a', 'read')])]).run('go')
    expect(spanNamed(spans(), 'execute_tool read').attributes).toMatchObject({
      'rein.retry.attempts': 3, 'rein.cache.hit': false, 'rein.spill.locator': 'spill://1', 'rein.spill.bytes': 60000,
    })
  })

  it('marks a failed model request and a failed run with error.type', async () => {
    const { spans } = recordSpans()
    const { ctx } = await harness()
    const outage = Object.assign(new Error('503 from upstream'), { code: 'UNAVAILABLE' })
    const outcome = await scriptedAgent(ctx, [() => { throw outage }]).run('go')
    expect(outcome.kind).toBe('error')
    const chat = spanNamed(spans(), 'chat test-model')
    expect(chat.attributes['error.type']).toBe('UNAVAILABLE')
    expect(chat.status).toEqual({ code: SpanStatusCode.ERROR, message: '503 from upstream' })
    const root = spanNamed(spans(), 'invoke_agent scout')
    expect(root.attributes).toMatchObject({ 'rein.run.outcome': 'error', 'error.type': 'UNAVAILABLE' })
    expect(root.status.code).toBe(SpanStatusCode.ERROR)
  })

  it('parents the run on the span active when it starts (with a context manager)', async () => {
    const { spans } = recordSpans()
    const { ctx } = await harness()
    context.setGlobalContextManager(new StackContext())
    const outer = trace.getTracer('app').startSpan('request')
    const run = context.with(trace.setSpan(ROOT_CONTEXT, outer), () => scriptedAgent(ctx, [textMessage('hi')]).run('go'))
    expect((await run).kind).toBe('completed')
    outer.end()
    expect(parentOf(spanNamed(spans(), 'invoke_agent scout'))).toBe(outer.spanContext().spanId)
  })
})

describe('content', () => {
  it('records no content by default, and messages and tool arguments/results with captureContent', async () => {
    for (const captureContent of [false, true]) {
      const { spans, exporter } = recordSpans()
      const { ctx, gate } = await harness({ captureContent })
      gate.release('a', { lines: 2 })
      await scriptedAgent(ctx, [callMessage([toolCall('a', 'read', { path: 'x' })]), textMessage('ok')]).run('go')
      const tool = spanNamed(spans(), 'execute_tool read')
      const chat = spanNamed(spans(), 'chat test-model', 'rein.step', 1)
      if (!captureContent) {
        expect(Object.keys(tool.attributes).filter((k) => k.startsWith('gen_ai.tool.call.a') || k.startsWith('gen_ai.tool.call.r'))).toEqual([])
        expect(chat.attributes['gen_ai.input.messages']).toBeUndefined()
      } else {
        expect(tool.attributes['gen_ai.tool.call.arguments']).toBe('{"path":"x"}')
        expect(tool.attributes['gen_ai.tool.call.result']).toBe('{"lines":2}')
        expect(JSON.parse(chat.attributes['gen_ai.input.messages'] as string)).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'go' }] }])
        expect(JSON.parse(chat.attributes['gen_ai.output.messages'] as string)).toEqual([{
          role: 'assistant', finish_reason: '',
          parts: [{ type: 'tool_call', id: 'a', name: 'read', arguments: '{"path":"x"}' }],
        }])
      }
      exporter.reset()
      trace.disable()
    }
  })
})
