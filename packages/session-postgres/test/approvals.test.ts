/**
 * Durable approvals on PostgreSQL: a run parks and its store is closed (nothing held); another
 * store, as another process would open it, lists and answers the request; a third continues the
 * run, and nothing that ran runs again. Two sessions on one harness never share an answer.
 */
import { expect, it } from 'vitest'
import type { Context } from 'cordis'
import { defineTool, type ApprovalService } from '@rein/kernel'
import { answerApproval, createAgent, pendingApprovals } from '@rein/agent'
import { callMessage, scripted, toolCall, withKernel } from '@rein/testing'
import { postgresSession } from '../src/index.js'
import { describeWithPostgres, newId, storedEntries } from './helpers.js'

/** A kernel with `read` (runs) and `push` (asks): the approval service answers from the session, else parks. */
async function harness(ledger: string[]) {
  const { ctx } = await withKernel({
    name: 'asks', inject: ['tools'],
    apply: (c: Context) => {
      for (const name of ['read', 'push']) {
        c.tools.register(defineTool({ name, description: name, parameters: { type: 'object' }, execute: () => { ledger.push(name); return name } }))
      }
      c.on('tools/pre-execute', async (exec, next) => exec.name === 'push' ? { kind: 'ask', reason: 'pushes' } : next())
      c.set('approval', {
        async request(request) {
          const approvals = request.exec.session?.approvals
          return approvals?.answered(request, 'push-rule')?.answer ?? (approvals?.mode === 'park' ? 'park' : 'deny')
        },
      } satisfies ApprovalService)
    },
  })
  return ctx
}

describeWithPostgres('approvals on postgresSession', (db) => {
  it('parks, is answered from another store, and continues from a third: each side effect once', async () => {
    const id = newId()
    const open = () => postgresSession({ connectionString: db().server.url, id })
    const ledger: string[] = []
    const ctx = await harness(ledger)
    const first = open()
    const steps = [callMessage([toolCall('r', 'read'), toolCall('p', 'push')])]
    const parked = await createAgent(ctx, { provider: scripted(steps), session: first, approvals: 'park' }).run('go')
    expect(parked.kind).toBe('awaiting-approval')
    await first.close!()

    const answering = open()
    const [pending] = await pendingApprovals(answering)
    expect(pending).toMatchObject({ id: parked.approvals![0].id, callId: 'p', tool: 'push' })
    await answerApproval(answering, pending.id, 'allow-once', { by: 'ops' })
    await expect(answerApproval(answering, pending.id, 'deny')).rejects.toThrow(/already answered \(allow-once by ops\)/)
    await answering.close!()

    const later = open()
    const next = await createAgent(ctx, { provider: scripted([]), session: later, approvals: 'park' }).run()
    expect(next.kind).toBe('completed')
    await later.close!()
    expect(ledger).toEqual(['read', 'push'])
    const kinds = (await storedEntries(db().admin, id)).map((e) => (e as { type: string }).type)
    expect(kinds.filter((k) => k.startsWith('approval/'))).toEqual(['approval/request', 'approval/answer'])
  })

  it('refuses an unknown id on PostgreSQL too, writing nothing', async () => {
    const id = newId()
    const store = postgresSession({ connectionString: db().server.url, id })
    await store.append({ type: 'message', message: { role: 'user', content: 'hi' } })
    await expect(answerApproval(store, 'apr_x', 'allow-once')).rejects.toThrow(/no approval request "apr_x"/)
    await store.close!()
    expect(await storedEntries(db().admin, id)).toHaveLength(1)
  })
})

