import type { Context } from 'cordis'
import { ABORTED_BEFORE_DISPATCH, TOOL_DENIED, type ToolExec } from '@rein/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import * as guard from '../src/index.js'
import { createPermissionGuard, type ApprovalAnswer, type ApprovalRequest, type PermissionGuardInput } from '../src/index.js'
import { captureWarnings } from '@rein/testing'
import { harness, messageOf, outcome } from './helpers.js'

/** An asker the test answers by hand; it also records how many asks were open at once. */
function scriptedAsker() {
  const pending: { exec: ToolExec, reason?: string, answer: (a: ApprovalAnswer) => void }[] = []
  const waiters: (() => void)[] = []
  let open = 0
  const state = { asked: [] as string[], maxOpen: 0 }
  const ask = (request: ApprovalRequest) => new Promise<ApprovalAnswer>((resolve) => {
    open++
    state.maxOpen = Math.max(state.maxOpen, open)
    state.asked.push(request.exec.id)
    pending.push({ ...request, answer: (a) => { open--; resolve(a) } })
    waiters.shift()?.()
  })
  /** The next ask, as soon as it arrives. */
  const next = async () => {
    if (!pending.length) await new Promise<void>((resolve) => waiters.push(resolve))
    return pending.shift()!
  }
  return { ask, next, state }
}

async function withAsker(config: PermissionGuardInput, ask?: ReturnType<typeof scriptedAsker>['ask']) {
  const h = await harness()
  h.ctx.plugin(ask ? createPermissionGuard({ ask }) : guard, config)
  await h.ctx.start()
  return h
}

const stops: (() => void)[] = []
afterEach(() => stops.splice(0).forEach((stop) => stop()))

describe('approval service', () => {
  it('runs the call on allow-once and asks again next time', async () => {
    const asker = scriptedAsker()
    const { call, ran } = await withAsker({ rules: [{ tool: 'bash', action: 'ask' }] }, asker.ask)
    for (let i = 0; i < 2; i++) {
      const result = call('bash', { command: 'ls' })
      const ask = await asker.next()
      expect(ask.reason).toBe('approval required by rules[0] (tool "bash")')
      ask.answer('allow-once')
      expect(outcome(await result)).toBe('ok')
    }
    expect(asker.state.asked).toHaveLength(2)
    expect(ran).toEqual(['bash', 'bash'])
  })

  it('denies on a deny answer, naming the reason', async () => {
    const asker = scriptedAsker()
    const { call, ran } = await withAsker({ rules: [{ tool: 'bash', action: 'ask', reason: 'shell needs a human' }] }, asker.ask)
    const result = call('bash')
    ;(await asker.next()).answer('deny')
    const denied = await result
    expect(outcome(denied)).toBe(TOOL_DENIED)
    expect(messageOf(denied)).toBe('"bash" was denied at approval (shell needs a human)')
    expect(ran).toEqual([])
  })

  it('lets allow-session cover the queued siblings of a batch and later calls of the same rule', async () => {
    const asker = scriptedAsker()
    const { call, ran } = await withAsker({
      rules: [{ tool: '*', action: 'ask' }, { tool: 'bash', action: 'ask', when: { command: 'git *' } }],
    }, asker.ask)
    const batch = [0, 1, 2].map((index) => call('bash', { command: `git status ${index}` }, { index }))
    const first = await asker.next()
    expect(first.exec.index).toBe(0)
    first.answer('allow-session')
    expect((await Promise.all(batch)).map(outcome)).toEqual(['ok', 'ok', 'ok'])
    expect(outcome(await call('bash', { command: 'git log' }))).toBe('ok')
    expect(asker.state.asked).toHaveLength(1)

    // The same tool under another rule, and another tool under the same rule, are asked again.
    const other = call('bash', { command: 'ls' })
    ;(await asker.next()).answer('deny')
    expect(outcome(await other)).toBe(TOOL_DENIED)
    const write = call('write_file')
    ;(await asker.next()).answer('allow-once')
    expect(outcome(await write)).toBe('ok')
    expect(ran).toEqual(['bash', 'bash', 'bash', 'bash', 'write_file'])
  })

  it('asks one at a time, in model order', async () => {
    const asker = scriptedAsker()
    const { call } = await withAsker({ default: 'ask' }, asker.ask)
    const names = ['write_file', 'bash', 'rm']
    const batch = names.map((name, index) => call(name, {}, { index }))
    for (const [index, name] of names.entries()) {
      const ask = await asker.next()
      expect([ask.exec.index, ask.exec.name]).toEqual([index, name])
      ask.answer(index === 1 ? 'deny' : 'allow-once')
    }
    expect((await Promise.all(batch)).map(outcome)).toEqual(['ok', TOOL_DENIED, 'ok'])
    expect(asker.state.maxOpen).toBe(1)
  })

  it('stops waiting when the call is aborted (ABORTED_BEFORE_DISPATCH: nothing was refused), then asks the next one', async () => {
    const asker = scriptedAsker()
    const { call, ran } = await withAsker({ default: 'ask' }, asker.ask)
    const controller = new AbortController()
    const stuck = call('bash', {}, { signal: controller.signal, index: 0 })
    const queued = call('rm', {}, { index: 1 })
    await asker.next()            // never answered
    controller.abort()
    expect(outcome(await stuck)).toBe(ABORTED_BEFORE_DISPATCH)
    ;(await asker.next()).answer('allow-once')
    expect(outcome(await queued)).toBe('ok')
    expect(ran).toEqual(['rm'])
  })

  it('denies when the asker throws or answers nonsense, and keeps serving later asks', async () => {
    let reply: () => ApprovalAnswer = () => { throw new Error('terminal closed') }
    const { call } = await withAsker({ default: 'ask' }, async () => reply())
    const thrown = await call('bash')
    expect(messageOf(thrown)).toBe('"bash" needs approval (no rule matches tool "bash" and the default is ask), and the approval service failed: terminal closed')
    reply = () => 'yes' as ApprovalAnswer
    expect(messageOf(await call('bash'))).toContain('the asker answered "yes"; expected "allow-once", "allow-session", "deny" or "park"')
    reply = () => 'allow-once'
    expect(outcome(await call('bash'))).toBe('ok')
  })

  it('denies every ask when no asker is configured, warning once', async () => {
    const { ctx, call, ran } = await withAsker({ default: 'ask' })
    const log = captureWarnings('permission-guard', ctx)
    stops.push(log.stop)
    expect(messageOf(await call('bash'))).toBe('"bash" was denied at approval (no rule matches tool "bash" and the default is ask)')
    expect(outcome(await call('rm'))).toBe(TOOL_DENIED)
    expect(ran).toEqual([])
    expect(log.warnings).toHaveLength(1)
    expect(log.warnings[0]).toContain('no asker is configured')
  })

  it('uses ctx.approvalPrompt when the plugin was loaded without an asker', async () => {
    const { ctx, call } = await withAsker({ default: 'ask' })
    const asked: string[] = []
    ctx.plugin({
      name: 'terminal',
      apply: (c: Context) => { c.set('approvalPrompt', { ask: ({ exec }: ApprovalRequest) => { asked.push(exec.name); return 'allow-once' } }) },
    })
    await ctx.start()
    expect(outcome(await call('bash'))).toBe('ok')
    expect(asked).toEqual(['bash'])
  })

  it('answers asks raised by other plugins too, remembering them by tool and reason', async () => {
    const asked: string[] = []
    const h = await harness()
    h.ctx.plugin(createPermissionGuard({ ask: ({ reason }) => { asked.push(reason ?? ''); return 'allow-session' } }), { rules: [] })
    h.ctx.plugin({
      name: 'cautious', inject: ['tools'],
      apply: (c: Context) => c.on('tools/pre-execute', async (exec) => ({ kind: 'ask', reason: `check ${String(exec.arguments.path)}` })),
    })
    await h.ctx.start()
    for (const path of ['a', 'a', 'b']) expect(outcome(await h.call('write_file', { path }))).toBe('ok')
    expect(asked).toEqual(['check a', 'check b'])
  })

  it('gives each harness its own session allowances', async () => {
    const answers: string[] = []
    const ask = async ({ exec }: ApprovalRequest) => { answers.push(exec.id); return 'allow-session' as const }
    const one = await withAsker({ default: 'ask' }, ask)
    const two = await withAsker({ default: 'ask' }, ask)
    expect(outcome(await one.call('bash'))).toBe('ok')
    expect(outcome(await two.call('bash'))).toBe('ok')
    expect(outcome(await one.call('bash'))).toBe('ok')
    expect(answers).toHaveLength(2)
  })
})
