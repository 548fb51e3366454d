/**
 * A call reconciled on resume (DESIGN.md §7.3) counts once in the session's budget, whether its
 * count reached the session before the crash or not: re-run after `ran: false` (the handler
 * sees the same key in the same turn), or committed after `ran: true` (the observer counts it
 * when its count was lost, and not again when it was kept).
 */
import { describe, expect, it } from 'vitest'
import { BUDGET_EXCEEDED, defineTool, idempotencyKeyOf, type ReconcileAnswer } from '@rein/kernel'
import { memorySession, type SessionStore } from '@rein/agent'
import { callMessage, textMessage, toolCall } from '@rein/testing'
import { STATE_KEY, STATE_PLUGIN } from '../src/index.js'
import { harness, results, runAgent } from './helpers.js'

/** A session whose process died while `charge` c1 ran: `tool/call` logged, no result; its count kept or lost. */
async function crashed(countKept: boolean): Promise<SessionStore> {
  const session = memorySession()
  await session.append({ type: 'message', message: { role: 'user', content: 'go' } })
  await session.append({ type: 'message', turn: 1, message: callMessage([toolCall('c1', 'charge', {})]) })
  await session.append({ type: 'tool/call', turn: 1, index: 0, call: { id: 'c1', name: 'charge', arguments: {} } })
  if (countKept) {
    const key = idempotencyKeyOf('c1', { session: { id: session.id }, turn: 1 })
    await session.append({
      type: 'state', plugin: STATE_PLUGIN, key: STATE_KEY,
      value: { calls: 1, perTool: { charge: 1 }, toolMs: 0, cost: 3, recent: [], turn: 1, counted: [key] },
    })
  }
  return session
}

/** The budget's latest counts in `session`. */
async function counts(session: SessionStore) {
  const values = (await session.load()).flatMap((e) => e.type === 'state' && e.plugin === STATE_PLUGIN ? [e.value] : [])
  return values.at(-1)
}

describe('a reconciled call in the budget', () => {
  it.each([
    ['ran: false (run again)', true, { ran: false }],
    ['ran: false (run again)', false, { ran: false }],
    ['ran: true (committed)', true, { ran: true, value: 'charged' }],
    ['ran: true (committed)', false, { ran: true, value: 'charged' }],
  ] as [string, boolean, ReconcileAnswer][])('%s counts once (its count kept before the crash: %s)', async (_case, kept, answer) => {
    const { ctx } = await harness({ maxCalls: 2, cost: { charge: 3 } })
    const charged: string[] = []
    ctx.tools.register(defineTool({
      name: 'charge', description: 'charges', parameters: { type: 'object' },
      execute: (_args, exec) => { charged.push(exec.id); return 'charged' },
      reconcile: () => answer,
    }))
    const session = await crashed(kept)
    await runAgent(ctx, [callMessage([toolCall('c2', 'read', {}), toolCall('c3', 'read', {})]), textMessage('done')], session)
    expect(charged).toEqual(answer.ran ? [] : ['c1'])
    expect(await results(session)).toEqual(['c1:ok', 'c2:ok', `c3:${BUDGET_EXCEEDED}`])
    expect(await counts(session)).toMatchObject({ calls: 3, perTool: { charge: 1, read: 2 }, cost: 3 })
  })
})
