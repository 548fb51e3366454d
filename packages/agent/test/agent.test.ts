import { describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import type { ToolExec } from '@rein/kernel'
import { callMessage, scripted, textMessage, toolCall, validateTranscript } from '@rein/testing'
import { createAgent, maxTurnsNotice } from '../src/index.js'
import { gatedHarness, kernelContext, outcomes, scriptedAgent } from './helpers.js'

describe('the agent loop', () => {
  it('completes on an answer without tool calls; the system message is written once per session', async () => {
    const ctx = await kernelContext()
    const { agent, provider } = scriptedAgent(ctx, [textMessage('hello'), textMessage('again')], { system: 'be brief' })
    const first = await agent.run('hi')
    expect(first).toEqual({ kind: 'completed', text: 'hello', messages: [
      { role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' },
    ] })
    const second = await agent.run('more')
    expect(second.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant'])
    expect(provider.requests[0].tools).toBe(ctx.tools.specs())
  })

  it('gives the answer as text when it completes, and no text when the run stopped early', async () => {
    const { ctx, gate } = await gatedHarness()
    ctx.tools.register(gate.tool('finish', { concludesTurn: true }))
    for (const id of ['r', 'f', 'x']) gate.release(id)
    const answered = scriptedAgent(ctx, [
      { ...callMessage([toolCall('r', 'read')]), content: 'Reading first.' },
      textMessage('The file says hello.'),
    ]).agent
    expect(await answered.run('read it')).toMatchObject({ kind: 'completed', text: 'The file says hello.' })
    const concluded = scriptedAgent(ctx, [callMessage([toolCall('f', 'finish')])]).agent
    expect(await concluded.run('finish')).toMatchObject({ kind: 'completed', text: '' })

    const limited = scriptedAgent(ctx, [{ ...callMessage([toolCall('x', 'read')]), content: 'Looking.' }], { maxTurns: 1 }).agent
    const stopped = await limited.run('loop')
    expect(stopped.kind).toBe('max-turns')
    expect('text' in stopped).toBe(false)
    const failed = await createAgent(ctx, { provider: { generate: async () => { throw new Error('503') } } }).run('hi')
    expect(failed.kind).toBe('error')
    expect('text' in failed).toBe(false)
    const aborted = await scriptedAgent(ctx, [textMessage('never asked')]).agent.run('hi', { signal: AbortSignal.abort() })
    expect(aborted.kind).toBe('aborted')
    expect('text' in aborted).toBe(false)
  })

  it('stops with max-turns after maxTurns model requests, and says so in the transcript', async () => {
    const { ctx, gate } = await gatedHarness()
    const ask = (n: number) => callMessage([toolCall(`call_${n}`, 'read')])
    gate.release('call_1')
    gate.release('call_2')
    const { agent, provider } = scriptedAgent(ctx, [ask(1), ask(2), ask(3)], { maxTurns: 2 })
    const outcome = await agent.run('loop')
    expect(outcome.kind).toBe('max-turns')
    expect(provider.requests).toHaveLength(2)
    expect(outcome.messages.at(-1)).toEqual({ role: 'user', content: maxTurnsNotice(2) })
    expect(outcomes(outcome.messages)).toEqual(['call_1:ok', 'call_2:ok'])
    expect(validateTranscript(outcome.messages)).toEqual([])
  })

  it('ends after the batch when a result has concludesTurn, with every result of the batch committed', async () => {
    const { ctx, gate } = await gatedHarness()
    ctx.tools.register(gate.tool('finish', { concludesTurn: true }))
    gate.release('f')
    gate.release('r')
    const { agent, provider } = scriptedAgent(ctx, [callMessage([toolCall('f', 'finish'), toolCall('r', 'read')])])
    const outcome = await agent.run('go')
    expect(outcome.kind).toBe('completed')
    expect(provider.requests).toHaveLength(1)
    expect(outcomes(outcome.messages)).toEqual(['f:ok', 'r:ok'])
  })

  it('delivers additionalContexts after the batch results, as one user message', async () => {
    const { ctx, gate } = await gatedHarness()
    ctx.plugin({
      name: 'hints', inject: ['tools'],
      apply: (c: Context) => c.on('tools/post-execute', async (exec: ToolExec, _r, next) => {
        const decision = await next()
        return exec.id === 'b' ? { kind: 'accept', additionalContexts: [{ type: 'text', text: `note on ${exec.id}` }] } : decision
      }),
    })
    gate.release('a')
    gate.release('b')
    const { agent, provider } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read'), toolCall('b', 'read')])])
    await agent.run('go')
    const seen = provider.requests[1].messages
    expect(seen.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user'])
    expect(seen.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'note on b' }] })
  })

  it('uses the provider\'s stream when it has one, emitting the text deltas', async () => {
    const ctx = await kernelContext()
    const deltas: string[] = []
    ctx.on('agent/text-delta', (event) => { deltas.push(event.text) })
    const agent = createAgent(ctx, { provider: scripted([textMessage('streamed answer')], { stream: true }) })
    const outcome = await agent.run('hi')
    expect(deltas).toEqual(['streamed ', 'answer'])
    expect(outcome.messages.at(-1)).toEqual({ role: 'assistant', content: 'streamed answer' })
  })

  it('emits call-start, call-end and turn-end, and gives hooks the turn, index and agent name', async () => {
    const { ctx, gate } = await gatedHarness()
    const events: string[] = []
    const execs: string[] = []
    ctx.on('agent/call-start', (e) => { events.push(`start ${e.id} t${e.turn} #${e.index}`) })
    ctx.on('agent/call-end', (e) => { events.push(`end ${e.id} ${e.result.isError ? 'error' : 'ok'}`) })
    ctx.on('agent/turn-end', (e) => { events.push(`turn ${e.turn} ${e.calls} ${e.outcome}`) })
    ctx.plugin({
      name: 'spy', inject: ['tools'],
      apply: (c: Context) => c.on('tools/execute', async (exec: ToolExec, next) => {
        execs.push(`${exec.agent} ${exec.turn} ${exec.index}`)
        return next()
      }),
    })
    gate.release('a')
    gate.release('b')
    const { agent } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read'), toolCall('b', 'write')])], { name: 'scout' })
    await agent.run('go')
    expect(events).toEqual(['start a t1 #0', 'end a ok', 'start b t1 #1', 'end b ok', 'turn 1 2 committed'])
    expect(execs).toEqual(['scout 1 0', 'scout 1 1'])
  })

  it('ends with error when the provider fails or answers something that is not a message', async () => {
    const ctx = await kernelContext()
    const failing = createAgent(ctx, { provider: { generate: async () => { throw new Error('503 from upstream') } } })
    const outcome = await failing.run('hi')
    expect(outcome.kind).toBe('error')
    expect(outcome.error?.message).toBe('503 from upstream')
    expect(outcome.messages).toEqual([{ role: 'user', content: 'hi' }])
    const malformed = scriptedAgent(ctx, [{ role: 'assistant', content: '', toolCalls: [{ name: 'x' } as never] }]).agent
    expect((await malformed.run('hi')).error?.message).toMatch(/tool call #0 without a string id and name/)
  })

  it('rejects bad options at creation and a second run while one is in progress', async () => {
    const ctx = await kernelContext()
    const provider = scripted([])
    expect(() => createAgent(ctx, { provider, maxTurns: 0 })).toThrow(/options.maxTurns must be a whole number of at least 1/)
    expect(() => createAgent(ctx, { provider, maxParallelToolCalls: 1.5 })).toThrow(/maxParallelToolCalls/)
    expect(() => createAgent(ctx, {} as never)).toThrow(/options.provider must be a Provider/)
    const { Context } = await import('cordis')
    expect(() => createAgent(new Context(), { provider })).toThrow(/ctx.tools is missing/)
    const agent = createAgent(ctx, { provider })
    const first = agent.run('one')
    await expect(agent.run('two')).rejects.toThrow(/already running/)
    expect((await first).kind).toBe('completed')
  })
})
