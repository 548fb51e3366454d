/** What one call of a batch holds (or a provider does) affects that call alone, and the run always ends. */
import { describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { DEPENDENCY_FAILED, INVALID_ARGS, INVALID_PLAN, MAX_ARGUMENT_DEPTH, defineTool, type Json } from '@rein/kernel'
import { callMessage, echoTool, toolCall, validateTranscript } from '@rein/testing'
import type { SessionEntry } from '../src/index.js'
import { kernelContext, outcomes, scriptedAgent } from './helpers.js'

async function echoContext(): Promise<{ ctx: Context, ran: unknown[] }> {
  const ctx = await kernelContext()
  const ran: unknown[] = []
  ctx.tools.register(echoTool())
  ctx.tools.register(defineTool({
    name: 'record', description: 'records its arguments', parameters: { type: 'object' }, isConcurrencySafe: () => true,
    execute: (args: Record<string, Json>) => { ran.push(args); return args },
  }))
  ctx.tools.register(defineTool({ name: 'nothing', description: 'returns null', parameters: { type: 'object' }, execute: () => null }))
  return { ctx, ran }
}

const codes = (entries: readonly SessionEntry[]) => entries.flatMap((e) => e.type === 'tool/result' ? [e.code ?? 'ok'] : [])

describe('arguments nested too deep', () => {
  it('are INVALID_ARGS for that call only: its siblings run, the run completes, the log holds the text as sent', async () => {
    const { ctx, ran } = await echoContext()
    const deep = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`
    const { agent, session } = scriptedAgent(ctx, [callMessage([
      toolCall('ok1', 'record', { n: 1 }), { id: 'deep', name: 'record', arguments: deep }, toolCall('ok2', 'record', { n: 2 }),
    ])])
    const outcome = await agent.run('go')
    expect(outcome.kind).toBe('completed')
    expect(outcomes(outcome.messages)).toEqual([
      'ok1:ok', `deep:Error: invalid arguments for "record": arguments may not be nested more than ${MAX_ARGUMENT_DEPTH} levels deep`, 'ok2:ok',
    ])
    expect(ran).toEqual([{ n: 1 }, { n: 2 }])
    const entries = await session.load()
    expect(codes(entries)).toEqual(['ok', INVALID_ARGS, 'ok'])
    expect(entries.find((e) => e.type === 'tool/call' && e.call.id === 'deep')).toMatchObject({ call: { arguments: deep } })
    expect(validateTranscript(outcome.messages)).toEqual([])
  })
})

describe('references', () => {
  it('to a null value give the tool null (whole string) or "null" (embedded)', async () => {
    const { ctx, ran } = await echoContext()
    const { agent } = scriptedAgent(ctx, [callMessage([
      toolCall('n', 'nothing'), toolCall('m', 'record', { whole: '${n.result}', text: 'v=${n.result}' }),
    ])])
    await agent.run('go')
    expect(ran).toEqual([{ whole: null, text: 'v=null' }])
  })

  it('do not let a __proto__ key through: with a reference it is INVALID_ARGS as without one', async () => {
    const { ctx, ran } = await echoContext()
    const { agent } = scriptedAgent(ctx, [callMessage([
      toolCall('p1', 'record', { n: 1 }),
      { id: 'p2', name: 'record', arguments: '{"__proto__":{"admin":true},"x":"${p1.result}"}' },
      // handed over as an object (a provider may), the key reaches the kernel through substitution
      { id: 'p3', name: 'record', arguments: { ...JSON.parse('{"__proto__":{"admin":true}}'), x: '${p1.result}' } },
    ])])
    const outcome = await agent.run('go')
    const refused = 'Error: invalid arguments for "record": arguments may not contain the key "__proto__"'
    expect(outcomes(outcome.messages)).toEqual(['p1:ok', `p2:${refused}`, `p3:${refused}`])
    expect(ran).toEqual([{ n: 1 }])
  })
})

describe('a chain of failed dependencies', () => {
  it('costs the same per call however long it is: each names its dependency and the first failure, capped', async () => {
    const { ctx } = await echoContext()
    const n = 300
    const calls = [toolCall('c0', 'nope')]
    for (let i = 1; i < n; i++) calls.push(toolCall(`c${i}`, 'echo', { $depends_on: [`c${i - 1}`] }))
    const { agent, session } = scriptedAgent(ctx, [callMessage(calls)])
    const outcome = await agent.run('go')
    const texts = outcome.messages.flatMap((m) => m.role === 'tool' && m.content[0]?.type === 'text' ? [m.content[0].text] : [])
    expect(texts[1]).toBe('Error: depends on c0, which failed: unknown tool "nope". Available tools: echo, record, nothing')
    expect(texts[n - 1]).toBe(`Error: depends on c${n - 2}, which failed because c0 failed: unknown tool "nope". Available tools: echo, record, nothing`)
    expect(Math.max(...texts.map((t) => t.length))).toBeLessThan(200)
    expect(codes(await session.load()).slice(1).every((code) => code === DEPENDENCY_FAILED)).toBe(true)
  })
})

describe('a tool-call id the model repeats in one message', () => {
  it('is renamed before the message is logged; that call is INVALID_PLAN and never runs; the transcript stays valid', async () => {
    const { ctx, ran } = await echoContext()
    const { agent, session, provider } = scriptedAgent(ctx, [callMessage([
      toolCall('x', 'record', { n: 1 }), toolCall('x', 'record', { n: 2 }), toolCall('y', 'record', { v: '${x.result}' }),
    ])])
    const outcome = await agent.run('go')
    expect(outcome.kind).toBe('completed')
    expect(ran).toEqual([{ n: 1 }])
    expect(validateTranscript(outcome.messages)).toEqual([])
    expect(validateTranscript(provider.requests[1]!.messages)).toEqual([])
    const assistant = outcome.messages.find((m) => m.role === 'assistant' && m.toolCalls)
    expect(assistant?.role === 'assistant' && assistant.toolCalls!.map((c) => c.id)).toEqual(['x', 'x_2', 'y'])
    expect(outcomes(outcome.messages)).toEqual([
      'x:ok',
      'x_2:Error: the id "x" was already given to an earlier call of this message, so this call did not run (its result is listed under "x_2"); give every call an id of its own',
      'y:Error: "x" names more than one call of this batch, so nothing can depend on it',
    ])
    expect(codes(await session.load())).toEqual(['ok', INVALID_PLAN, INVALID_PLAN])
  })
})

describe('a provider that ignores the abort', () => {
  it.each([false, true])('is given up on abandonAfterMs after the abort (stream: %s); the run ends aborted', async (stream) => {
    const ctx = new (await import('cordis')).Context()
    ctx.plugin(kernel, { abandonAfterMs: 20 })
    await ctx.start()
    const hang = () => new Promise<never>(() => {})
    const provider = stream
      ? { generate: hang, async *stream() { await hang() } }
      : { generate: hang }
    const { agent } = scriptedAgent(ctx, [], { provider })
    const controller = new AbortController()
    const run = agent.run('go', { signal: controller.signal })
    setTimeout(() => controller.abort(), 5)
    const outcome = await run
    expect(outcome.kind).toBe('aborted')
    expect(validateTranscript(outcome.messages)).toEqual([])
  })
})
