import { describe, expect, it } from 'vitest'
import { DEPENDENCY_FAILED, INVALID_PLAN, type Message, type ToolMessage } from '@rein/kernel'
import { callMessage, echoTool, toolCall, validateTranscript } from '@rein/testing'
import { gatedHarness, outcomes, scriptedAgent, settle } from './helpers.js'

async function harness() {
  const h = await gatedHarness()
  h.ctx.tools.register(echoTool())
  h.ctx.tools.register(h.gate.tool('modal', { safe: (args) => args.mode !== 'exclusive' }))
  return h
}

const codeOf = (messages: readonly Message[], id: string) => {
  const entry = messages.find((m): m is ToolMessage => m.role === 'tool' && m.toolCallId === id)
  const first = entry?.content[0]
  return entry?.isError && first?.type === 'text' ? first.text : 'ok'
}

describe('dependencies', () => {
  it('gives a whole-string reference the typed JSON value and an embedded one its text', async () => {
    const { ctx, gate } = await harness()
    const { agent } = scriptedAgent(ctx, [callMessage([
      toolCall('call_1', 'read'),
      toolCall('call_2', 'read', {
        list: '${call_1.result.a.b}', first: '${call_1.result.a.b.0}', text: 'n=${call_1.result.a.b} s=${call_1.result.s}',
        whole: '${call_1.result}',
      }),
    ])])
    gate.release('call_1', { a: { b: [1, 2] }, s: 'str' })
    gate.release('call_2')
    await agent.run('go')
    expect(gate.args.get('call_2')).toEqual({
      list: [1, 2], first: 1, text: 'n=[1,2] s=str', whole: { a: { b: [1, 2] }, s: 'str' },
    })
  })

  it('starts a call the moment its dependencies are final, not when a whole layer is done', async () => {
    const { ctx, gate, stages } = await harness()
    const { agent } = scriptedAgent(ctx, [callMessage([
      toolCall('A', 'read'), toolCall('B', 'read'), toolCall('C', 'read', { $depends_on: ['B'] }), toolCall('D', 'read', { x: '${C.result}' }),
    ])])
    const run = agent.run('go')
    await gate.whenRunning(2)
    gate.release('B')
    await gate.whenStarted('C')
    expect(gate.running).toBe(2)
    expect(stages).toContain('post B')
    expect(stages).not.toContain('post A')
    gate.release('C')
    await gate.whenStarted('D')
    expect(gate.finished).toEqual(['B', 'C'])
    gate.release('D')
    gate.release('A')
    const outcome = await run
    expect(gate.args.get('C')).toEqual({})
    expect(stages.filter((s) => s.startsWith('post'))).toEqual(['post B', 'post C', 'post A', 'post D'])
    expect(validateTranscript(outcome.messages)).toEqual([])
  })

  it('allows a $depends_on edge to a later call that no barrier separates', async () => {
    const { ctx, gate } = await harness()
    const { agent } = scriptedAgent(ctx, [callMessage([toolCall('X', 'read', { $depends_on: ['Y'] }), toolCall('Y', 'read')])])
    const run = agent.run('go')
    await gate.whenStarted('Y')
    await settle()
    expect(gate.started).toEqual(['Y'])
    gate.release('Y')
    gate.release('X')
    expect(outcomes((await run).messages)).toEqual(['X:ok', 'Y:ok'])
  })

  it('answers a cycle and an unknown id with INVALID_PLAN, and still runs the other calls', async () => {
    const { ctx, gate } = await harness()
    const { agent } = scriptedAgent(ctx, [callMessage([
      toolCall('c1', 'read', { x: '${c2.result}' }), toolCall('c2', 'read', { $depends_on: ['c1'] }),
      toolCall('self', 'read', { $depends_on: ['self'] }), toolCall('ghost', 'read', { x: '${nope.result}' }),
      toolCall('fine', 'read'),
    ])])
    gate.release('fine')
    const outcome = await agent.run('go')
    expect(gate.started).toEqual(['fine'])
    const invalid = outcome.messages.filter((m) => m.role === 'tool' && m.isError)
    expect(invalid.map((m) => m.role === 'tool' && m.toolCallId)).toEqual(['c1', 'c2', 'self', 'ghost'])
    expect(codeOf(outcome.messages, 'c1')).toMatch(/^Error: dependency cycle through c1, c2/)
    expect(codeOf(outcome.messages, 'ghost')).toMatch(/depends on "nope", which is not a call of this batch/)
    expect(validateTranscript(outcome.messages)).toEqual([])
  })

  it('flags a cycle that runs through a barrier: a reference past an exclusive call', async () => {
    const { ctx, gate } = await harness()
    const { agent, session } = scriptedAgent(ctx, [callMessage([
      toolCall('early', 'read', { $depends_on: ['late'] }), toolCall('w', 'write'), toolCall('late', 'read'),
    ])])
    for (const id of ['w', 'late']) gate.release(id)
    const outcome = await agent.run('go')
    expect(gate.started).toEqual(['w', 'late'])
    expect(codeOf(outcome.messages, 'early')).toMatch(/^Error: dependency cycle through early, w, late/)
    const codes = (await session.load()).flatMap((e) => e.type === 'tool/result' ? [e.code ?? 'ok'] : [])
    expect(codes).toEqual([INVALID_PLAN, 'ok', 'ok'])
  })

  it('answers a call whose dependency failed with DEPENDENCY_FAILED; its body never runs', async () => {
    const { ctx, gate } = await harness()
    const { agent, session } = scriptedAgent(ctx, [callMessage([
      toolCall('a', 'read'), toolCall('b', 'read', { x: '${a.result}' }), toolCall('c', 'read', { $depends_on: ['b'] }),
    ])])
    gate.fail('a', 'disk on fire')
    const outcome = await agent.run('go')
    expect(gate.started).toEqual(['a'])
    expect(codeOf(outcome.messages, 'b')).toBe('Error: depends on a, which failed: disk on fire')
    expect(codeOf(outcome.messages, 'c')).toBe('Error: depends on b, which failed because a failed: disk on fire')
    const codes = (await session.load()).flatMap((e) => e.type === 'tool/result' ? [e.code] : [])
    expect(codes).toEqual(['TOOL_FAILED', DEPENDENCY_FAILED, DEPENDENCY_FAILED])
  })

  it('answers a reference to a path the value does not have with INVALID_PLAN', async () => {
    const { ctx, gate } = await harness()
    const { agent } = scriptedAgent(ctx, [callMessage([toolCall('a', 'read'), toolCall('b', 'read', { x: '${a.result.items.3}' })])])
    gate.release('a', { items: [1] })
    const outcome = await agent.run('go')
    expect(gate.started).toEqual(['a'])
    expect(codeOf(outcome.messages, 'b')).toBe(
      'Error: ${a.result.items.3} does not exist: result.items is an array of 1 item(s), with no index "3"')
  })

  it('classifies a call with references after substitution: exclusive waits for every earlier call', async () => {
    const { ctx, gate } = await harness()
    const { agent } = scriptedAgent(ctx, [callMessage([
      toolCall('slow', 'read'), toolCall('mode', 'read'), toolCall('m', 'modal', { mode: '${mode.result}' }), toolCall('after', 'read'),
    ])])
    const run = agent.run('go')
    await gate.whenRunning(2)
    gate.release('mode', 'exclusive')
    await settle()
    expect(gate.started).toEqual(['slow', 'mode'])
    gate.release('slow')
    await gate.whenStarted('m')
    await settle()
    expect(gate.started).toEqual(['slow', 'mode', 'm'])
    gate.release('m')
    gate.release('after')
    expect((await run).kind).toBe('completed')
    expect(gate.started.at(-1)).toBe('after')
  })

  it('classifies a call with references after substitution: parallel runs beside earlier calls', async () => {
    const { ctx, gate } = await harness()
    const { agent } = scriptedAgent(ctx, [callMessage([
      toolCall('slow', 'read'), toolCall('mode', 'read'), toolCall('m', 'modal', { mode: '${mode.result}' }), toolCall('after', 'read'),
    ])])
    const run = agent.run('go')
    await gate.whenRunning(2)
    gate.release('mode', 'parallel')
    await gate.whenStarted('after')
    expect(gate.running).toBe(3)
    for (const id of ['slow', 'm', 'after']) gate.release(id)
    expect((await run).kind).toBe('completed')
  })
})
