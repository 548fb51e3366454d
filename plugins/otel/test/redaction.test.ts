/**
 * Spans carry no text the audit log would not: a tool's error text, its own error code, a
 * model-chosen tool name and call id, a model error and (with `captureContent`) content reach
 * a span only through `@rein/redact`'s built-in patterns and the config's `redact`.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { SpanStatusCode, trace } from '@opentelemetry/api'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { callMessage, textMessage, toolCall } from '@rein/testing'
import type { Context } from 'cordis'
import * as otel from '../src/index.js'
import { harness, recordSpans, scriptedAgent, spanNamed } from './helpers.js'

afterEach(() => { trace.disable() })

const GITHUB = 'ghp_0123456789abcdefghijABCDEFGHIJ'
const SK = 'sk-live-0123456789abcdefXYZ'
const CORP = 'corp-deadbeef'
/** Fragments of the secrets that no redacted text may hold. */
const FRAGMENTS = ['admin:pw', '0123456789abcdefghij', '0123456789abcdefXYZ', 'deadbeef', 'tok3n-value-0000']

/** Every text a span shows an exporter: its name, string attributes, status message, events. */
function textsOf(span: ReadableSpan): string[] {
  const values = Object.values(span.attributes).flatMap((value) => (Array.isArray(value) ? value : [value]))
  return [span.name, span.status.message ?? '', ...values.filter((value): value is string => typeof value === 'string'),
    ...span.events.map((event) => JSON.stringify(event))]
}

function expectClean(spans: readonly ReadableSpan[]): void {
  const leaks = spans.flatMap((span) => textsOf(span).filter((text) => FRAGMENTS.some((f) => text.includes(f))).map((text) => `${span.name}: ${text}`))
  expect(leaks).toEqual([])
}

/** Registers `echo`, which answers `{ stdout: 'out:\n' + text }`. */
function echoTool(ctx: Context): void {
  ctx.plugin({
    name: 'echo-tool', inject: ['tools'],
    apply(inner: Context) {
      inner.tools.register({
        name: 'echo', description: 'echo', parameters: { type: 'object' }, isConcurrencySafe: () => true,
        execute: (args: { text: string }) => ({ stdout: `out:\n${args.text}` }),
      } as never)
    },
  })
}

describe('redaction of spans', () => {
  it.each([false, true])('takes secrets out of error text, error codes, tool names and call ids (captureContent %s)', async (captureContent) => {
    const { spans } = recordSpans()
    const { ctx, gate } = await harness({ captureContent, redact: ['corp-[0-9a-f]{8}'] })
    gate.fail(SK, `GET https://admin:pw@host/api?token=${GITHUB} failed for ${CORP}`, `E_${SK}`)
    const outcome = await scriptedAgent(ctx, [
      callMessage([
        toolCall(SK, 'read', { auth: 'Bearer tok3n-value-0000', path: `/x/${CORP}` }),
        toolCall(`call-${CORP}`, GITHUB, {}),
      ]),
      textMessage('done'),
    ]).run('go')
    expect(outcome.kind).toBe('completed')
    const all = spans()
    expectClean(all)
    const read = spanNamed(all, 'execute_tool read')
    expect(read.status).toEqual({ code: SpanStatusCode.ERROR, message: 'GET https://[REDACTED]@host/api?token=[REDACTED] failed for [REDACTED]' })
    expect(read.attributes).toMatchObject({ 'gen_ai.tool.call.id': '[REDACTED]', 'error.type': 'E_[REDACTED]', 'rein.result.code': 'E_[REDACTED]' })
    const unknown = spanNamed(all, 'execute_tool')
    expect(unknown.attributes).toMatchObject({ 'gen_ai.tool.name': '[REDACTED]', 'gen_ai.tool.call.id': 'call-[REDACTED]', 'error.type': 'UNKNOWN_TOOL' })
    if (captureContent) expect(read.attributes['gen_ai.tool.call.arguments']).toBe('{"auth":"Bearer [REDACTED]","path":"/x/[REDACTED]"}')
  })

  it('takes a secret after a newline out of arguments, results and messages (redacted before JSON)', async () => {
    const { spans } = recordSpans()
    const text = `keys:\n${SK}\n${GITHUB}\nAuthorization:\nBearer tok3n-value-0000`
    const { ctx } = await harness({ captureContent: true }, echoTool)
    const outcome = await scriptedAgent(ctx, [
      callMessage([toolCall('c1', 'echo', { text })], `thinking:\n${SK}`),
      textMessage(`answer:\n${GITHUB}`),
    ]).run(`my keys:\n${SK}\n${GITHUB}`)
    expect(outcome.kind).toBe('completed')
    const all = spans()
    expectClean(all)
    const echo = spanNamed(all, 'execute_tool echo')
    expect(JSON.parse(echo.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({ text: 'keys:\n[REDACTED]\n[REDACTED]\nAuthorization:\nBearer [REDACTED]' })
    expect(JSON.parse(echo.attributes['gen_ai.tool.call.result'] as string)).toEqual({ stdout: 'out:\nkeys:\n[REDACTED]\n[REDACTED]\nAuthorization:\nBearer [REDACTED]' })
    const chats = all.filter((span) => span.name === 'chat test-model')
    expect(chats).toHaveLength(2)
    for (const chat of chats) {
      expect(chat.attributes['gen_ai.input.messages']).toContain('[REDACTED]')
      expect(chat.attributes['gen_ai.output.messages']).toContain('[REDACTED]')
    }
  })

  it('keeps JSON content intact: a pattern never runs across fields', async () => {
    const { spans } = recordSpans()
    const { ctx } = await harness({ captureContent: true }, echoTool)
    const args = { text: 'x', url: 'http://localhost:8080', method: 'POST', to: 'ops@example.com' }
    await scriptedAgent(ctx, [callMessage([toolCall('c1', 'echo', args)]), textMessage('done')]).run('go')
    const read = spanNamed(spans(), 'execute_tool echo')
    expect(read.attributes['gen_ai.tool.call.arguments']).toBe(JSON.stringify(args))
    const second = spans().filter((span) => span.name === 'chat test-model')
      .map((span) => span.attributes['gen_ai.input.messages'] as string).find((text) => text.includes('tool_call'))
    expect(second).toContain(JSON.stringify(JSON.stringify(args)))
  })

  it('takes secrets out of a failed model request and a failed run', async () => {
    const { spans } = recordSpans()
    const { ctx } = await harness()
    const outage = Object.assign(new Error(`upstream said: Authorization: Bearer tok3n-value-0000 refused (${SK})`), { code: 'UNAVAILABLE' })
    expect((await scriptedAgent(ctx, [() => { throw outage }]).run('go')).kind).toBe('error')
    expectClean(spans())
    expect(spanNamed(spans(), 'chat test-model').status.message).toBe('upstream said: Authorization: Bearer [REDACTED] refused ([REDACTED])')
  })

  it('refuses a redact pattern that does not compile or matches the empty string, naming the entry', () => {
    expect(() => otel.Config({ redact: ['ok-[0-9]+', 'corp-[0-9'] })).toThrow(/redact.*1|is not a valid regular expression/)
    expect(() => otel.Config({ redact: ['x*'] })).toThrow(/matches the empty string/)
    expect(otel.Config({})).toMatchObject({ redact: [], captureContent: false })
  })
})
