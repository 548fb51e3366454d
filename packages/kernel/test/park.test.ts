/** An approval service's `'park'` reply: the call waits in its session, or is denied where it cannot. */
import { describe, expect, it } from 'vitest'
import { APPROVAL_PARKED, TOOL_DENIED, type ApprovalService, type SessionApprovals } from '../src/index.js'
import { call, code, echoTool, firstText, makeKernel, plug } from './helpers.js'

const approvals: SessionApprovals = { mode: 'park', answered: () => undefined }

async function parkingKernel() {
  const ctx = await makeKernel()
  const seen: string[] = []
  ctx.set('approval', { request: async () => 'park' } satisfies ApprovalService)
  await plug(ctx, 'asker', (ctx) => {
    ctx.on('tools/pre-execute', async () => ({ kind: 'ask', reason: 'writes files' }))
    ctx.on('tools/post-execute', async (_exec, _result, next) => { seen.push('post'); return next() })
    ctx.on('tools/result', (_exec, result) => { seen.push(`observed ${code(result)}`) })
  })
  const body: string[] = []
  ctx.tools.register(echoTool({ execute: (args: { text: string }) => { body.push('ran'); return args.text } }))
  return { ctx, seen, body }
}

describe('park', () => {
  it('ends the call APPROVAL_PARKED where its session records approvals: final, no body, no post-execute, observers told', async () => {
    const { ctx, seen, body } = await parkingKernel()
    const result = await ctx.tools.execute(call({ text: 'x' }), { session: { id: 's', approvals } })
    expect([code(result), firstText(result)]).toEqual([APPROVAL_PARKED, 'Error: "echo" awaits approval (writes files)'])
    expect(seen).toEqual([`observed ${APPROVAL_PARKED}`])
    expect(body).toEqual([])
  })

  it('is a deny where nothing can keep the call waiting (no session, or one without approvals)', async () => {
    const { ctx, body } = await parkingKernel()
    for (const session of [undefined, { id: 's' }]) {
      const result = await ctx.tools.execute(call({ text: 'x' }), { session })
      expect([code(result), firstText(result)]).toEqual([
        TOOL_DENIED, 'Error: "echo" needs approval (writes files), and cannot wait for it here (its session records no approvals)',
      ])
    }
    expect(body).toEqual([])
  })
})
