/**
 * `onExceeded: end-run` in a batch that also parks a call for approval (DESIGN.md §7.2, §7.3):
 * the refusal that ends the run is kept in the session, so the continuation, in a fresh
 * harness and agent as after a restart, runs the answered call and then ends the run exactly
 * as a run whose asker answered at once would have.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { BUDGET_EXCEEDED, type ApprovalService } from '@rein/kernel'
import { answerApproval, createAgent, jsonlSession, type SessionStore } from '@rein/agent'
import { callMessage, scripted, textMessage, toolCall } from '@rein/testing'
import { harness, results, tempDir } from './helpers.js'

/** Every `pay` call asks; the answer recorded in the session wins, then park (park mode), then the live answer `allow-once`. */
function asksAboutPay(ctx: Context): void {
  const service: ApprovalService = {
    async request(request) {
      const approvals = request.exec.session?.approvals
      const recorded = approvals?.answered(request, 'pay-rule')
      if (recorded) return recorded.answer
      return approvals?.mode === 'park' ? 'park' : 'allow-once'
    },
  }
  ctx.plugin({
    name: 'asks-about-pay',
    inject: ['tools'],
    apply(c: Context) {
      c.on('tools/pre-execute', async (exec, next) => exec.name === 'pay' ? { kind: 'ask', reason: 'pay needs a person' } : next())
      c.set('approval', service)
    },
  })
}

// `read` costs 1 of a budget of 1: `a` spends it, `b` is refused and ends the run; `pay` costs nothing.
const config = { maxCost: 1, cost: { read: 1 }, onExceeded: 'end-run' as const }
const batch = () => callMessage([toolCall('a', 'read', { id: 'a' }), toolCall('b', 'read', { id: 'b' }), toolCall('p', 'pay', { to: 'ana' })])

async function runOn(session: SessionStore, approvals: 'ask' | 'park', input?: string) {
  const { ctx, ran } = await harness(config, { after: asksAboutPay })
  const provider = scripted(input === undefined ? [textMessage('never asked')] : [batch(), textMessage('never asked')])
  const agent = createAgent(ctx, { provider, session, approvals })
  const outcome = await agent.run(input)
  await session.close?.()
  return { outcome, ran, provider }
}

describe('end-run with a parked call in the same batch', () => {
  it('ends the continuation, in a fresh agent on the file session, as the run would have ended without parking', async () => {
    const dir = await tempDir()
    const live = await runOn(jsonlSession(join(dir, 'live.jsonl')), 'ask', 'go')
    expect(live.outcome.kind).toBe('stopped')
    expect(live.ran).toEqual(['a', 'p'])

    const path = join(dir, 'parked.jsonl')
    const parked = await runOn(jsonlSession(path), 'park', 'go')
    expect(parked.outcome.kind).toBe('awaiting-approval')
    expect(parked.ran).toEqual(['a'])
    const [request] = parked.outcome.approvals!
    const answering = jsonlSession(path)
    const stored = (await answering.load()).find((e) => e.type === 'tool/result' && e.index === 1)
    expect(stored).toMatchObject({ code: BUDGET_EXCEEDED, endsRun: true })
    await answerApproval(answering, request!.id, 'allow-once', { by: 'ana' })
    await answering.close?.()

    const continued = await runOn(jsonlSession(path), 'park')
    expect(continued.ran).toEqual(['p'])
    expect(continued.provider.requests).toHaveLength(0)
    expect(continued.outcome.kind).toBe(live.outcome.kind)
    expect(continued.outcome.stop).toEqual(live.outcome.stop)
    expect(continued.outcome.stop).toMatchObject({ callId: 'b', tool: 'read', code: BUDGET_EXCEEDED })
    const session = jsonlSession(path)
    expect(await results(session)).toEqual(['a:ok', `b:${BUDGET_EXCEEDED}`, 'p:ok'])
    expect((await session.load()).at(-1)).toMatchObject({ type: 'turn/end', outcome: 'committed' })
    await session.close?.()
  })
})
