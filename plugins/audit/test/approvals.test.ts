/**
 * Audit lines of calls that needed approval: a parked call is audited as parked, and again when
 * it finally runs or is refused; an answered call's line names the answer, who gave it and when.
 * The approval service here notes the answer on `exec.meta.approval` as permission-guard does.
 */
import { join } from 'node:path'
import type { Context } from 'cordis'
import { APPROVAL_PARKED, TOOL_DENIED, type ApprovalService } from '@rein/kernel'
import { answerApproval, createAgent, memorySession } from '@rein/agent'
import { scripted } from '@rein/testing'
import { describe, expect, it } from 'vitest'
import * as audit from '../src/index.js'
import { kernelContext, readLines, registerTools, tempDir } from './helpers.js'

async function parkingStack() {
  const file = join(await tempDir(), 'audit.jsonl')
  const ctx = await kernelContext()
  registerTools(ctx)
  ctx.plugin(audit, { file })
  const service: ApprovalService = {
    async request(request) {
      const approvals = request.exec.session?.approvals
      const recorded = approvals?.answered(request, 'echo-rule')
      if (!recorded) return approvals?.mode === 'park' ? 'park' : 'deny'
      const { answer, at, by, id } = recorded
      request.exec.meta.approval = by === undefined ? { answer, at, id } : { answer, at, by, id }
      return answer
    },
  }
  ctx.plugin({
    name: 'asks', inject: ['tools'],
    apply: (c: Context) => {
      c.on('tools/pre-execute', async (exec, next) => exec.name === 'echo' ? { kind: 'ask', reason: 'echo needs a person' } : next())
      c.set('approval', service)
    },
  })
  await ctx.start()
  const session = memorySession()
  const agent = createAgent(ctx, {
    provider: scripted([{ role: 'assistant', content: '', toolCalls: [{ id: 'e1', name: 'echo', arguments: '{"text":"hi"}' }] }]),
    session, approvals: 'park',
  })
  return { file, session, agent }
}

describe('audit of approvals', () => {
  it.each([
    ['allow-once', undefined, false],
    ['deny', TOOL_DENIED, true],
  ] as const)('audits a parked call as parked, then again with the answer (%s), who gave it and when', async (answer, code, isError) => {
    const { file, session, agent } = await parkingStack()
    const parked = await agent.run('go')
    expect(await readLines(file)).toMatchObject([{ id: 'e1', name: 'echo', decision: 'ask', isError: true, code: APPROVAL_PARKED }])
    expect((await readLines(file))[0].approval).toBeUndefined()
    const id = parked.approvals![0].id
    const answered = await answerApproval(session, id, answer, { by: 'ana' })
    await agent.run()
    const lines = await readLines(file)
    expect(lines).toHaveLength(2)
    expect(lines[1]).toMatchObject({ id: 'e1', decision: 'ask', isError, approval: { answer, by: 'ana', id, at: new Date(answered.at!).toISOString() } })
    expect(lines[1].code).toBe(code)
  })
})
