/**
 * run_code under parking (DESIGN.md §7.2): a sub-call that asks parks the run_code call; the
 * continuation runs the code again, answers the sub-calls that already have results from the
 * session (never running them twice), runs the answered one, and ends RUN_CODE_DIVERGED when
 * the code asks something else; the sandbox's clock and random numbers are the same each run.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as guard from '@rein/plugin-permission-guard'
import { defineTool, type Json } from '@rein/kernel'
import { answerApproval, createAgent, jsonlSession, memorySession, pendingApprovals, type SessionStore } from '@rein/agent'
import { scripted } from '@rein/testing'
import { harness } from './helpers.js'
import { RUN_CODE_DIVERGED } from '../src/index.js'

const stops: Array<() => Promise<void>> = []
afterEach(async () => { await Promise.all(stops.splice(0).map((stop) => stop())) })

/** `note` (allowed) and `push` (asks) append `<tool>:<x>` to `effects` when their body runs. */
async function parkingHarness() {
  const effects: string[] = []
  const effect = (name: string) => defineTool<{ x?: Json }, Json>({
    name,
    description: `${name} something`,
    parameters: { type: 'object', properties: { x: {} } },
    execute: ({ x }) => {
      effects.push(`${name}:${JSON.stringify(x ?? null)}`)
      return { [name]: x ?? null }
    },
  })
  const policy = { default: 'allow', rules: [{ tool: 'push', action: 'ask', reason: 'push needs a person' }] }
  const { ctx } = await harness({ plugins: [[guard, policy]], tools: [effect('note'), effect('push')] })
  stops.push(() => ctx.stop())
  return { ctx, effects }
}

const runCodeCall = (code: string) => ({ role: 'assistant' as const, content: '', toolCalls: [{ id: 'rc', name: 'run_code', arguments: JSON.stringify({ code }) }] })

/** The run_code call's result as the model saw it: `[isError, text]`. */
function lastResult(messages: readonly { role: string, content: unknown, isError?: boolean }[]): [boolean, string] {
  const tool = messages.filter((m) => m.role === 'tool').at(-1) as { isError?: boolean, content: { type: string, text: string }[] }
  return [tool.isError === true, tool.content.map((block) => block.text).join('\n')]
}

async function parked(code: string, session: SessionStore = memorySession()) {
  const h = await parkingHarness()
  const agent = createAgent(h.ctx, { provider: scripted([runCodeCall(code)]), session, approvals: 'park' })
  const outcome = await agent.run('go')
  return { ...h, agent, session, outcome }
}

const TWO = `
  const first = await tools.note({ x: 1 })
  const second = await tools.push({ x: 2 })
  return { first, second }`

describe('run_code under parking', () => {
  it('parks the run_code call when its second sub-call asks; the request is the run_code call\'s, naming the sub-call', async () => {
    const { outcome, effects, session } = await parked(TWO)
    expect(outcome.kind).toBe('awaiting-approval')
    expect(outcome.approvals).toEqual([{
      id: expect.stringMatching(/^apr_/), callId: 'rc', tool: 'run_code', arguments: { code: TWO }, reason: 'push needs a person',
      subCall: { id: 'rc.2', tool: 'push', arguments: { x: 2 } },
    }])
    expect(effects).toEqual(['note:1'])
    expect(await pendingApprovals(session)).toMatchObject([{ id: outcome.approvals![0].id, subCall: { id: 'rc.2', tool: 'push' } }])
  })

  it('continues after allow-once: the first sub-call is answered from the session (not run again), the second runs', async () => {
    const { outcome, effects, session, agent } = await parked(TWO)
    await answerApproval(session, outcome.approvals![0].id, 'allow-once', { by: 'ana' })
    const next = await agent.run()
    expect(next.kind).toBe('completed')
    expect(effects).toEqual(['note:1', 'push:2'])
    expect(lastResult(next.messages)).toEqual([false, JSON.stringify({ first: { note: 1 }, second: { push: 2 } })])
    expect(await pendingApprovals(session)).toEqual([])
  })

  it('continues across processes: a new agent on the same JSONL file runs nothing twice', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'run-code-park-'))
    stops.push(() => rm(dir, { recursive: true, force: true }))
    const file = join(dir, 'session.jsonl')
    const first = jsonlSession(file)
    const { outcome, effects } = await parked(TWO, first)
    await first.close?.()
    const answering = jsonlSession(file)
    await answerApproval(answering, outcome.approvals![0].id, 'allow-once')
    await answering.close?.()
    const other = await parkingHarness()
    const next = await createAgent(other.ctx, { provider: scripted([]), session: jsonlSession(file), approvals: 'park' }).run()
    expect(next.kind).toBe('completed')
    expect(effects).toEqual(['note:1'])
    expect(other.effects).toEqual(['push:2'])
  })

  it('gives the code a TOOL_DENIED error for the sub-call after a deny answer; nothing else runs again', async () => {
    const code = `
      await tools.note({ x: 1 })
      try { await tools.push({ x: 2 }) } catch (error) { return 'refused: ' + error.code }
      return 'pushed'`
    const { outcome, effects, session, agent } = await parked(code)
    await answerApproval(session, outcome.approvals![0].id, 'deny')
    const next = await agent.run()
    expect(lastResult(next.messages)).toEqual([false, 'refused: TOOL_DENIED'])
    expect(effects).toEqual(['note:1'])
  })

  it('parks again under a new request for a later sub-call that asks; each sub-call runs once', async () => {
    const code = `
      await tools.note({ x: 1 })
      await tools.push({ x: 2 })
      await tools.push({ x: 3 })
      return 'ok'`
    const { outcome, effects, session, agent } = await parked(code)
    await answerApproval(session, outcome.approvals![0].id, 'allow-once')
    const again = await agent.run()
    expect(again.kind).toBe('awaiting-approval')
    expect(again.approvals![0]).toMatchObject({ callId: 'rc', subCall: { id: 'rc.3', tool: 'push', arguments: { x: 3 } } })
    expect(again.approvals![0].id).not.toBe(outcome.approvals![0].id)
    await answerApproval(session, again.approvals![0].id, 'allow-once')
    const done = await agent.run()
    expect(done.kind).toBe('completed')
    expect(effects).toEqual(['note:1', 'push:2', 'push:3'])
  })

  it('keeps an unanswered request under its id when the continuation parks at the same sub-call', async () => {
    const { outcome, effects, agent } = await parked(TWO)
    const again = await agent.run()
    expect(again.approvals).toEqual(outcome.approvals)
    expect(effects).toEqual(['note:1'])
  })

  // What a sub-call answered before the park is answered the same from the session; what the code
  // can read besides (here: which tools it may call, as a tool is registered meanwhile) may change.
  const extra = defineTool({ name: 'extra', description: 'registered while the call waits', parameters: { type: 'object' }, execute: () => 'extra' })

  it('ends RUN_CODE_DIVERGED when the code asks something else at a call that already has a result, and runs nothing further', async () => {
    const code = `
      await tools.note({ x: Object.keys(tools).length })
      await tools.push({ x: 2 })
      return 'ok'`
    const { outcome, effects, session, agent, ctx } = await parked(code)
    expect(effects).toEqual(['note:2'])
    ctx.tools.register(extra)
    await answerApproval(session, outcome.approvals![0].id, 'allow-once')
    const next = await agent.run()
    const [isError, text] = lastResult(next.messages)
    expect(isError).toBe(true)
    expect(text).toMatch(/asked something else at call 1: it first called tools\.note\(\{"x":2\}\), now tools\.note\(\{"x":3\}\); nothing further ran/)
    expect(effects).toEqual(['note:2'])
    const result = (await session.load()).find((e) => e.type === 'tool/result')
    expect(result).toMatchObject({ code: RUN_CODE_DIVERGED })
  })

  it('ends RUN_CODE_DIVERGED when the code, run again, ends without a call it made before', async () => {
    const code = `
      if ('extra' in tools) return 'skipped'
      await tools.note({ x: 1 })
      await tools.push({ x: 2 })
      return 'ok'`
    const { outcome, effects, session, agent, ctx } = await parked(code)
    ctx.tools.register(extra)
    await answerApproval(session, outcome.approvals![0].id, 'allow-once')
    const next = await agent.run()
    expect(lastResult(next.messages)).toEqual([true, expect.stringMatching(/ended without making call 1 \(tools\.note\), which it made the first time/)])
    expect(effects).toEqual(['note:1'])
  })

  it('gives Date and Math.random the same values in the run that parked and in its continuation', async () => {
    const code = `
      const seen = { now: Date.now(), date: new Date().toISOString(), random: [Math.random(), Math.random()] }
      await tools.note({ x: seen })
      await tools.push({ x: seen })
      return seen`
    const { outcome, effects, session, agent } = await parked(code)
    await new Promise((resolve) => setTimeout(resolve, 5))
    await answerApproval(session, outcome.approvals![0].id, 'allow-once')
    const next = await agent.run()
    expect(next.kind).toBe('completed')
    expect(effects).toHaveLength(2)
    const [first, second] = effects.map((line) => JSON.parse(line.slice(line.indexOf(':') + 1)))
    expect(second).toEqual(first)
    expect(first.random[0]).not.toBe(first.random[1])
    expect(first.date).toBe(new Date(first.now).toISOString())
  })
})
