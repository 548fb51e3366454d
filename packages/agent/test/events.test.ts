import { describe, expect, it } from 'vitest'
import { callMessage, captureWarnings, textMessage, toolCall } from '@rein/testing'
import type { AgentEventMap, RunEventName, RunStartEvent } from '../src/index.js'
import { gatedHarness, kernelContext, outcomes, scriptedAgent } from './helpers.js'

const RUN_EVENTS: RunEventName[] = [
  'agent/run-end', 'agent/model-request', 'agent/model-response', 'agent/call-start', 'agent/call-end',
  'agent/turn-end', 'agent/text-delta',
]

/** Every event of the runs on `ctx`, as `name` lines, through one observer per run. */
function recordRuns(ctx: Awaited<ReturnType<typeof kernelContext>>) {
  const seen: Array<{ name: string, event: AgentEventMap[keyof AgentEventMap] }> = []
  ctx.on('agent/run-start', (run) => {
    seen.push({ name: 'agent/run-start', event: run })
    run.observe(Object.fromEntries(RUN_EVENTS.map((name) => [name, (event: never) => seen.push({ name, event })])))
  })
  return seen
}

describe('observation events', () => {
  it('tells a run from start to end: model request and response, calls, turn end, in order', async () => {
    const { ctx, gate } = await gatedHarness()
    const seen = recordRuns(ctx)
    gate.release('a')
    gate.fail('b', 'disk full', 'ENOSPC')
    const answer = { ...callMessage([toolCall('a', 'read'), toolCall('b', 'read')]), usage: { inputTokens: 12, outputTokens: 3 } }
    const { agent } = scriptedAgent(ctx, [Object.assign(answer, { finishReason: 'tool_calls' }), textMessage('ok')], { name: 'scout' })
    const outcome = await agent.run('go')
    expect(outcome.kind).toBe('completed')
    const lines = seen.map(({ name, event }) => {
      const e = event as unknown as Record<string, unknown>
      return [name, e.step ?? e.id ?? e.outcome].filter((x) => x !== undefined).join(' ')
    })
    expect(lines).toEqual([
      'agent/run-start', 'agent/model-request 1', 'agent/model-response 1',
      'agent/call-start a', 'agent/call-start b', 'agent/call-end a', 'agent/call-end b', 'agent/turn-end committed',
      'agent/model-request 2', 'agent/model-response 2', 'agent/run-end completed',
    ])
    const runId = (seen[0].event as RunStartEvent).runId
    expect(runId).toMatch(/^[0-9a-f-]{36}$/)
    for (const { event } of seen) expect(event).toMatchObject({ runId, agent: 'scout' })
    expect(seen[2].event).toMatchObject({ turn: 1, step: 1, finishReason: 'tool_calls', usage: { inputTokens: 12, outputTokens: 3 } })
    expect(seen[5].event).toMatchObject({ id: 'a', mode: 'parallel', index: 0, turn: 1 })
    expect((seen[5].event as AgentEventMap['agent/call-end']).code).toBeUndefined()
    expect(seen[6].event).toMatchObject({ id: 'b', mode: 'parallel', index: 1, code: 'ENOSPC' })
    expect(seen.at(-1)!.event).toMatchObject({ outcome: 'completed', steps: 2 })
  })

  it('gives every run its own id, and reports the model name when the provider has one', async () => {
    const ctx = await kernelContext()
    const seen = recordRuns(ctx)
    const { agent, provider } = scriptedAgent(ctx, [textMessage('one'), textMessage('two')])
    Object.assign(provider, { model: 'test-model' })
    await agent.run('first')
    await agent.run('second')
    const starts = seen.filter((s) => s.name === 'agent/run-start').map((s) => (s.event as RunStartEvent).runId)
    expect(new Set(starts).size).toBe(2)
    expect(seen.find((s) => s.name === 'agent/model-request')!.event).toMatchObject({ model: 'test-model', step: 1 })
  })

  it('reports a failed model request with its error, then the run\'s end with outcome error', async () => {
    const ctx = await kernelContext()
    const seen = recordRuns(ctx)
    const { agent } = scriptedAgent(ctx, [() => { throw new Error('503 from upstream') }])
    const outcome = await agent.run('go')
    expect(outcome.kind).toBe('error')
    const response = seen.find((s) => s.name === 'agent/model-response')!.event as AgentEventMap['agent/model-response']
    expect(response.error?.message).toBe('503 from upstream')
    expect(response.message).toBeUndefined()
    expect(seen.at(-1)!.event).toMatchObject({ outcome: 'error', steps: 1 })
    expect((seen.at(-1)!.event as AgentEventMap['agent/run-end']).error?.message).toBe('503 from upstream')
  })

  it('carries the facts plugins record for a call (result.meta) on its end event', async () => {
    const { ctx, gate } = await gatedHarness()
    ctx.plugin({
      name: 'counter', inject: ['tools'],
      apply: (c: typeof ctx) => c.on('tools/execute', async (exec, next) => { exec.meta.attempts = 2; return next() }),
    })
    const ended: Array<AgentEventMap['agent/call-end']> = []
    ctx.on('agent/run-start', (run) => { run.observe({ 'agent/call-end': (e) => ended.push(e) }) })
    gate.release('a')
    const { agent } = scriptedAgent(ctx, [callMessage([toolCall('a', 'write')])])
    await agent.run('go')
    expect(ended[0]).toMatchObject({ id: 'a', mode: 'exclusive', meta: { attempts: 2 } })
  })

  it('drops a run\'s observers when the run ends, and after unsubscribing', async () => {
    const ctx = await kernelContext()
    let requests = 0
    let runs = 0
    ctx.on('agent/run-start', (run) => {
      runs++
      const stop = run.observe({ 'agent/model-request': () => { requests++ } })
      if (runs === 2) stop()
    })
    const { agent } = scriptedAgent(ctx, [textMessage('a'), textMessage('b')])
    await agent.run('one')
    await agent.run('two')
    expect(runs).toBe(2)
    expect(requests).toBe(1)
  })
})

describe('observe-only', () => {
  it('contains a throwing event listener: the run and its results are unaffected', async () => {
    const { ctx, gate } = await gatedHarness()
    ctx.on('agent/call-start', () => { throw new Error('listener bug') })
    const ended: string[] = []
    ctx.on('agent/call-end', (event) => { ended.push(event.id) })
    gate.release('a')
    const { agent } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read')])])
    const outcome = await agent.run('go')
    expect(outcome.kind).toBe('completed')
    expect(outcomes(outcome.messages)).toEqual(['a:ok'])
    expect(ended).toEqual(['a'])
  })

  it('logs a throwing run observer and still calls the observers after it', async () => {
    const { ctx, gate } = await gatedHarness()
    const warnings = captureWarnings('agent', ctx)
    const ended: string[] = []
    ctx.on('agent/run-start', (run) => {
      run.observe({ 'agent/call-end': () => { throw new Error('observer bug') }, 'agent/run-end': () => { throw new Error('late bug') } })
      run.observe({ 'agent/call-end': (e) => { ended.push(e.id) } })
    })
    gate.release('a')
    try {
      const { agent } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read')])])
      const outcome = await agent.run('go')
      expect(outcome.kind).toBe('completed')
      expect(outcomes(outcome.messages)).toEqual(['a:ok'])
    } finally {
      warnings.stop()
    }
    expect(ended).toEqual(['a'])
    expect(warnings.warnings).toEqual([
      'a listener of agent/call-end failed: observer bug',
      'a listener of agent/run-end failed: late bug',
    ])
  })
})
