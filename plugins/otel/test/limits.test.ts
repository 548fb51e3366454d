/**
 * Every text a span carries is bounded: each string attribute and status message to
 * `maxStringLength` (also without `captureContent`), each string of content to it and a content
 * attribute's whole JSON text to `maxContentLength`, span names to `maxNameLength`; a call of a
 * tool the harness does not know is named plain `execute_tool`, its name only an attribute.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { SpanStatusCode, trace } from '@opentelemetry/api'
import type { Context } from 'cordis'
import { callMessage, textMessage, toolCall } from '@rein/testing'
import * as otel from '../src/index.js'
import { harness, recordSpans, scriptedAgent, spanNamed } from './helpers.js'

afterEach(() => { trace.disable() })

/** `echo` answers its `text` argument; `boom` throws its `text` argument. */
function tools(ctx: Context) {
  ctx.plugin({
    name: 'limit-tools', inject: ['tools'],
    apply(c: Context) {
      const base = { parameters: { type: 'object' }, isConcurrencySafe: () => true }
      c.tools.register({ ...base, name: 'echo', description: 'echo', execute: (args: { text: string }) => ({ out: args.text }) })
      c.tools.register({ ...base, name: 'boom', description: 'boom', execute: (args: { text: string }) => { throw new Error(args.text) } })
    },
  } as never)
}

/** The length of `max` characters plus the cut's marker for `dropped` characters. */
const cutLength = (max: number, dropped: number) => max + `…[${dropped} more chars]`.length

describe('bounds on span texts', () => {
  it('cuts each string of tool arguments and results to maxStringLength (default 4096), keeping JSON', async () => {
    const { spans } = recordSpans()
    const { ctx } = await harness({ captureContent: true }, tools)
    const big = 'A'.repeat(200_000)
    await scriptedAgent(ctx, [callMessage([toolCall('c1', 'echo', { text: big })]), textMessage('done')]).run('go')
    const echo = spanNamed(spans(), 'execute_tool echo')
    const args = echo.attributes['gen_ai.tool.call.arguments'] as string
    const result = echo.attributes['gen_ai.tool.call.result'] as string
    expect(JSON.parse(args)).toEqual({ text: `${'A'.repeat(4096)}…[${200_000 - 4096} more chars]` })
    expect(JSON.parse(result)).toEqual({ out: `${'A'.repeat(4096)}…[${200_000 - 4096} more chars]` })
    const chat = spans().filter((span) => span.name === 'chat test-model')
    for (const span of chat) expect((span.attributes['gen_ai.input.messages'] as string).length).toBeLessThan(20_000)
  })

  it('cuts a content attribute\'s whole JSON text to maxContentLength', async () => {
    const { spans } = recordSpans()
    const { ctx } = await harness({ captureContent: true, maxContentLength: 500 }, tools)
    await scriptedAgent(ctx, [callMessage([toolCall('c1', 'echo', { text: 'b'.repeat(2000) })]), textMessage('done')]).run('go')
    const all = spans()
    const echo = spanNamed(all, 'execute_tool echo')
    const args = echo.attributes['gen_ai.tool.call.arguments'] as string
    expect(args).toBe(`${`{"text":"${'b'.repeat(2000)}"}`.slice(0, 500)}…[${2011 - 500} more chars]`)
    for (const span of all.filter((s) => s.name.startsWith('chat'))) {
      for (const key of ['gen_ai.input.messages', 'gen_ai.output.messages']) {
        const text = span.attributes[key] as string | undefined
        if (text !== undefined) expect(text.length).toBeLessThanOrEqual(cutLength(500, 9_999_999))
      }
    }
  })

  it('cuts a failed call\'s status message and a long call id with captureContent off', async () => {
    const { spans } = recordSpans()
    const { ctx } = await harness({}, tools)
    const id = 'i'.repeat(10_000)
    await scriptedAgent(ctx, [callMessage([toolCall(id, 'boom', { text: 'E'.repeat(100_000) })]), textMessage('done')]).run('go')
    const boom = spanNamed(spans(), 'execute_tool boom')
    expect(boom.status.code).toBe(SpanStatusCode.ERROR)
    expect(boom.status.message).toBe(`${'E'.repeat(4096)}…[${100_000 - 4096} more chars]`)
    expect(boom.attributes['gen_ai.tool.call.id']).toBe(`${'i'.repeat(4096)}…[${10_000 - 4096} more chars]`)
    for (const value of Object.values(boom.attributes)) if (typeof value === 'string') expect(value.length).toBeLessThanOrEqual(cutLength(4096, 99_999))
  })

  it('cuts a failed model request\'s and run\'s status message', async () => {
    const { spans } = recordSpans()
    const { ctx } = await harness({ maxStringLength: 100 })
    const outage = Object.assign(new Error('X'.repeat(50_000)), { code: 'UNAVAILABLE' })
    expect((await scriptedAgent(ctx, [() => { throw outage }]).run('go')).kind).toBe('error')
    const expected = `${'X'.repeat(100)}…[${50_000 - 100} more chars]`
    expect(spanNamed(spans(), 'chat test-model').status.message).toBe(expected)
    const run = spanNamed(spans(), 'invoke_agent scout')
    if (run.status.message !== undefined) expect(run.status.message.length).toBeLessThanOrEqual(expected.length)
  })

  it('names a call of an unknown tool plain execute_tool, its cut name only an attribute', async () => {
    const { spans } = recordSpans()
    const { ctx } = await harness()
    const name = `tool_${'x'.repeat(100_000)}`
    await scriptedAgent(ctx, [callMessage([toolCall('u1', name, {})]), textMessage('done')]).run('go')
    const all = spans()
    expect(all.every((span) => span.name.length <= cutLength(256, 99_999))).toBe(true)
    const unknown = spanNamed(all, 'execute_tool')
    expect(unknown.attributes).toMatchObject({
      'gen_ai.tool.name': `${name.slice(0, 256)}…[${name.length - 256} more chars]`,
      'error.type': 'UNKNOWN_TOOL',
      'rein.result.code': 'UNKNOWN_TOOL',
    })
  })

  it('cuts span names to maxNameLength: the agent and the model', async () => {
    const { spans } = recordSpans()
    const { ctx } = await harness({ maxNameLength: 40 })
    const agentName = 'a'.repeat(1000)
    await scriptedAgent(ctx, [textMessage('done')], { name: agentName }).run('go')
    const names = spans().map((span) => span.name).sort()
    expect(names).toEqual([`invoke_agent ${'a'.repeat(27)}…[973 more chars]`, 'chat test-model'].sort())
  })

  it('takes 0 as no limit, and has defaults', async () => {
    expect(otel.Config({})).toMatchObject({ maxStringLength: 4096, maxContentLength: 65536, maxNameLength: 256 })
    expect(() => otel.Config({ maxStringLength: -1 })).toThrow()
    const { spans } = recordSpans()
    const { ctx } = await harness({ captureContent: true, maxStringLength: 0, maxContentLength: 0 }, tools)
    const big = 'C'.repeat(10_000)
    await scriptedAgent(ctx, [callMessage([toolCall('c1', 'echo', { text: big })]), textMessage('done')]).run('go')
    expect(spanNamed(spans(), 'execute_tool echo').attributes['gen_ai.tool.call.arguments']).toBe(JSON.stringify({ text: big }))
  })
})
