import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { memorySession, type SessionEntry } from '@rein/agent'
import type { Provider, ToolExec } from '@rein/kernel'
import { createGate, echoTool } from '@rein/testing'
import * as permissionGuard from '@rein/plugin-permission-guard'
import { createHarness } from '../src/index.js'

/**
 * A model that decides from the transcript alone, as one provider serving many sessions must:
 * for the task `<label>` it asks for `tool` once (call id `<label>-call`), then answers
 * `<label> done`.
 */
const oneCall = (tool: string): Provider => ({
  async generate({ messages }) {
    const label = String(messages.find((m) => m.role === 'user')?.content)
    if (messages.some((m) => m.role === 'tool')) return { role: 'assistant', content: `${label} done` }
    return { role: 'assistant', content: '', toolCalls: [{ id: `${label}-call`, name: tool, arguments: JSON.stringify({ label }) }] }
  },
})

const toolsOf = (...tools: ReturnType<typeof echoTool>[]) =>
  [{ name: 'test-tools', inject: ['tools'], apply: (ctx: Context) => { for (const tool of tools) ctx.tools.register(tool) } }]

/** The user messages and call ids a session holds. */
function contents(entries: SessionEntry[]) {
  return {
    messages: entries.flatMap((e) => e.type === 'message' && (e.message.role === 'user' || e.message.role === 'system') ? [`${e.message.role}: ${e.message.content}`] : []),
    calls: entries.flatMap((e) => e.type === 'tool/call' ? [e.call.id] : []),
  }
}

describe('harness.agentFor(session): a new agent per session on one harness', () => {
  it('makes a new agent on the session given, with the harness\'s provider, settings and system prompt', async () => {
    const harness = await createHarness({ provider: oneCall('echo'), tools: toolsOf(echoTool()), agent: { system: 'be brief', maxTurns: 1 } })
    const [one, two] = [memorySession(), memorySession()]
    const first = harness.agentFor(one)
    const second = harness.agentFor(two)
    expect(second).not.toBe(first)
    expect([first.session, second.session]).toEqual([one, two])

    expect(await first.run('one')).toMatchObject({ kind: 'max-turns' }) // maxTurns: 1 came along
    expect(await second.run('two')).toMatchObject({ kind: 'max-turns' })
    expect(contents(await one.load())).toMatchObject({ messages: ['system: be brief', 'user: one', expect.stringMatching(/^user: \[rein\] This run stopped after 1 model requests/)], calls: ['one-call'] })
    expect(contents(await two.load())).toMatchObject({ messages: ['system: be brief', 'user: two', expect.any(String)], calls: ['two-call'] })
    expect(harness.agent.session).not.toBe(one) // the harness's own agent is another one, on its own session
    await harness.dispose()
  })

  it('names the agent in its events and in exec.agent of its calls', async () => {
    const seen: string[] = []
    const recorder = { ...echoTool(), execute: (_args: unknown, exec: ToolExec) => { seen.push(`call by ${exec.agent}`); return {} } }
    const harness = await createHarness({ provider: oneCall('echo'), tools: toolsOf(recorder) })
    harness.ctx.on('agent/run-start', (run) => { seen.push(`run of ${run.agent}`) })
    await harness.agentFor(memorySession(), { name: 'agent-7' }).run('x')
    await harness.agentFor(memorySession()).run('y')
    expect(seen).toEqual(['run of agent-7', 'call by agent-7', 'run of agent', 'call by agent'])
    await harness.dispose()
  })

  it('keeps two agents running at once apart: each session holds its own run, and aborting one leaves the other', async () => {
    const gate = createGate()
    const harness = await createHarness({ provider: oneCall('wait'), tools: toolsOf(gate.tool('wait')) })
    const [a, b] = [memorySession(), memorySession()]
    const stopA = new AbortController()
    const runA = harness.agentFor(a, { name: 'agent-1' }).run('a', { signal: stopA.signal })
    const runB = harness.agentFor(b, { name: 'agent-2' }).run('b')
    await gate.whenRunning(2)
    stopA.abort()
    expect(await runA).toMatchObject({ kind: 'aborted' })
    expect(gate.finished).toEqual(['a-call'])
    gate.release('b-call')
    expect(await runB).toMatchObject({ kind: 'completed', text: 'b done' })
    expect(contents(await a.load())).toEqual({ messages: ['user: a'], calls: ['a-call'] })
    expect(contents(await b.load())).toEqual({ messages: ['user: b'], calls: ['b-call'] })
    await harness.dispose()
  })

  it('{ approvals } overrides the settings for that agent only: park ends the run awaiting approval, ask (the default) denies', async () => {
    const guard = [[permissionGuard, { rules: [{ tool: 'echo', action: 'ask', reason: 'a person decides' }] }]] as const
    const harness = await createHarness({ provider: oneCall('echo'), plugins: [...guard], tools: toolsOf(echoTool()) })
    const parked = await harness.agentFor(memorySession(), { approvals: 'park' }).run('p')
    expect(parked).toMatchObject({ kind: 'awaiting-approval', approvals: [{ callId: 'p-call', tool: 'echo', arguments: { label: 'p' }, reason: 'a person decides' }] })
    const asked = await harness.agentFor(memorySession()).run('a')
    expect(asked).toMatchObject({ kind: 'completed', text: 'a done' })
    expect(JSON.stringify(asked.messages)).toContain('was denied at approval (a person decides)')
    await harness.dispose()
  })

  it('says what is wrong: no provider, not a session, a bad name, a disposed harness', async () => {
    const bare = await createHarness({ tools: toolsOf(echoTool()) })
    expect(() => bare.agentFor(memorySession())).toThrow(expect.objectContaining({
      code: 'AGENT_UNAVAILABLE', message: 'no provider: pass { provider } to createHarness',
    }))
    await bare.dispose()

    const harness = await createHarness({ provider: oneCall('echo'), tools: toolsOf(echoTool()) })
    expect(() => harness.agentFor({} as never)).toThrow(/^agentFor\(session\): session must be a SessionStore \(load\(\) and append\(entry\)\)/)
    expect(() => harness.agentFor(memorySession(), { name: '' })).toThrow('agentFor(session, { name }): name must be a non-empty string, got ""')
    expect(() => harness.agentFor(memorySession(), { approvals: 'later' as never })).toThrow(`agentFor(session, { approvals }): approvals must be 'ask' or 'park', got "later"`)
    await harness.dispose()
    expect(() => harness.agentFor(memorySession())).toThrow('the harness was disposed: load a new one to run an agent')
  })
})
