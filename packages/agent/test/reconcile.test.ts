/**
 * Reconcile on resume (DESIGN.md §7.3), over sessions that died mid-batch: a started call
 * without a result asks its tool's `reconcile` first; `ran: true` commits the value
 * (`meta.reconciled`), `ran: false` runs it once through the whole pipeline under the same
 * key, anything else keeps TOOL_OUTCOME_UNKNOWN; a call never started stays TOOL_NOT_STARTED.
 */
import { describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import {
  INVALID_TOOL_OUTPUT, TOOL_DENIED, TOOL_NOT_STARTED, TOOL_OUTCOME_UNKNOWN, defineTool, idempotencyKeyOf,
  type ReconcileInput, type ToolDefinition, type ToolExec,
} from '@rein/kernel'
import { callMessage, toolCall, validateTranscript } from '@rein/testing'
import { memorySession, type SessionEntry, type SessionStore } from '../src/index.js'
import { kernelContext, scriptedAgent } from './helpers.js'

/** A session that died mid-batch: `pay` c1 was started (`tool/call` logged, no result), c2 never started. */
async function interrupted(): Promise<SessionStore> {
  const session = memorySession()
  await session.append({ type: 'message', message: { role: 'user', content: 'go' } })
  await session.append({ type: 'message', turn: 1, message: callMessage([toolCall('c1', 'pay', { amount: 5 }), toolCall('c2', 'pay', { amount: 7 })]) })
  await session.append({ type: 'tool/call', turn: 1, index: 0, call: { id: 'c1', name: 'pay', arguments: { amount: 5 } } })
  return session
}

/** A `pay` tool whose body and reconcile record what they were given; `reconcile` answers as told. */
function payTool(reconcile: ToolDefinition['reconcile'], extra: Partial<ToolDefinition> = {}) {
  const paid: { amount: number, key: string }[] = []
  const asked: ReconcileInput[] = []
  const tool = defineTool({
    name: 'pay', description: 'pays', parameters: { type: 'object', properties: { amount: { type: 'number' } } },
    output: { schema: { type: 'object', required: ['receipt'] } },
    execute: (args: { amount: number }, exec: ToolExec) => {
      paid.push({ amount: args.amount, key: exec.idempotencyKey })
      return { receipt: `r${args.amount}` }
    },
    reconcile: reconcile && ((input) => { asked.push(input); return reconcile(input) }),
    ...extra,
  })
  return { tool, paid, asked }
}

/** Resumes `session` on `ctx` and reports the codes and meta of the results, and the entries. */
async function resume(ctx: Context, session: SessionStore, signal?: AbortSignal) {
  const { agent, provider } = scriptedAgent(ctx, [], { session })
  const outcome = await agent.run(undefined, { signal })
  const entries = await session.load()
  const results = entries.filter((e): e is Extract<SessionEntry, { type: 'tool/result' }> => e.type === 'tool/result')
  const byId = new Map(results.map((e) => [e.message.toolCallId, e]))
  return { outcome, entries, byId, request: provider.requests[0]?.messages }
}

async function harness(tool: ToolDefinition) {
  const ctx = await kernelContext()
  ctx.tools.register(tool)
  return ctx
}

const sessionOf = (session: SessionStore) => ({ session: { id: session.id }, turn: 1 })

describe('reconcile on resume', () => {
  it('ran: true commits the value (output-checked, rendered, post-executed, meta.reconciled) without running the body', async () => {
    const { tool, paid, asked } = payTool(() => ({ ran: true, value: { receipt: 'r5-before-crash' } }))
    const ctx = await harness(tool)
    const posted: string[] = []
    ctx.plugin({
      name: 'post', inject: ['tools'],
      apply: (c: Context) => c.on('tools/post-execute', (exec: ToolExec, result, next) => { posted.push(`${exec.id}:${String(exec.meta.reconciled)}`); return next() }),
    })
    const session = await interrupted()
    const { outcome, byId, request } = await resume(ctx, session)
    expect(outcome.kind).toBe('completed')
    expect(paid).toEqual([])
    expect(asked).toHaveLength(1)
    expect(asked[0]!.arguments).toEqual({ amount: 5 })
    expect(asked[0]!.idempotencyKey).toBe(idempotencyKeyOf('c1', sessionOf(session)))
    expect(byId.get('c1')).toMatchObject({ meta: { reconciled: true }, message: { isError: false, content: [{ type: 'text', text: '{"receipt":"r5-before-crash"}' }] } })
    expect(byId.get('c1')!.code).toBeUndefined()
    expect(byId.get('c2')!.code).toBe(TOOL_NOT_STARTED)
    expect(posted).toEqual(['c1:true'])
    expect(validateTranscript(request!)).toEqual([])
  })

  it('ran: true with a value that does not fit the output schema commits INVALID_TOOL_OUTPUT, still reconciled', async () => {
    const { tool, paid } = payTool(() => ({ ran: true, value: { nothing: 1 } }))
    const { byId } = await resume(await harness(tool), await interrupted())
    expect(byId.get('c1')).toMatchObject({ code: INVALID_TOOL_OUTPUT, meta: { reconciled: true } })
    expect(paid).toEqual([])
  })

  it('ran: false runs the call once, now, through pre-execute, under the same idempotency key', async () => {
    const { tool, paid } = payTool(() => ({ ran: false }))
    const ctx = await harness(tool)
    const pre: string[] = []
    ctx.plugin({
      name: 'pre', inject: ['tools'],
      apply: (c: Context) => c.on('tools/pre-execute', (exec: ToolExec, next) => { pre.push(exec.id); return next() }),
    })
    const session = await interrupted()
    const { byId } = await resume(ctx, session)
    expect(paid).toEqual([{ amount: 5, key: idempotencyKeyOf('c1', sessionOf(session)) }])
    expect(pre).toEqual(['c1'])
    expect(byId.get('c1')).toMatchObject({ message: { isError: false, content: [{ type: 'text', text: '{"receipt":"r5"}' }] } })
    expect(byId.get('c1')!.meta).toBeUndefined()
    expect(byId.get('c2')!.code).toBe(TOOL_NOT_STARTED)
    // A later resume has nothing left to reconcile: the call ran once.
    await resume(ctx, session)
    expect(paid).toHaveLength(1)
  })

  it('ran: false is refused by a guard like any call: the guard applies to the re-run', async () => {
    const { tool, paid } = payTool(() => ({ ran: false }))
    const ctx = await harness(tool)
    ctx.plugin({ name: 'no-pay', inject: ['tools'], apply: (c: Context) => c.tools.guard(() => 'payments are off') })
    const { byId } = await resume(ctx, await interrupted())
    expect(paid).toEqual([])
    expect(byId.get('c1')!.code).toBe(TOOL_DENIED)
  })

  const unknowns: [string, ToolDefinition['reconcile'], RegExp][] = [
    ['throws', () => { throw new Error('ledger offline') }, /its reconcile failed: ledger offline/],
    ['rejects', () => Promise.reject(new Error('ledger offline')), /its reconcile failed: ledger offline/],
    ['answers null', () => null as never, /answered neither/],
    ['answers ran: "yes"', () => ({ ran: 'yes' }) as never, /answered neither/],
    ['answers ran: true without a value', () => ({ ran: true }) as never, /answered neither/],
    ['answers ran: false with a value', () => ({ ran: false, value: 1 }) as never, /answered neither/],
    ['answers ran: true with an extra key', () => ({ ran: true, value: { receipt: 'x' }, also: 1 }) as never, /answered neither/],
    ['answers ran: true through a getter', () => Object.defineProperty({ value: { receipt: 'x' } }, 'ran', { get: () => true, enumerable: true }) as never, /answered neither/],
    ['answers a revoked proxy', () => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy as never }, /its reconcile failed: .*revoked/],
    ['answers an array', () => [true] as never, /answered neither/],
  ]
  it.each(unknowns)('a reconcile that %s keeps TOOL_OUTCOME_UNKNOWN, saying why, and runs nothing', async (_case, reconcile, why) => {
    const { tool, paid } = payTool(reconcile)
    const { byId, outcome } = await resume(await harness(tool), await interrupted())
    expect(outcome.kind).toBe('completed')
    expect(byId.get('c1')!.code).toBe(TOOL_OUTCOME_UNKNOWN)
    expect((byId.get('c1')!.message.content[0] as { text: string }).text).toMatch(why)
    expect(paid).toEqual([])
  })

  it('without reconcile keeps today\'s TOOL_OUTCOME_UNKNOWN, with today\'s message', async () => {
    const { tool, paid } = payTool(undefined)
    const { byId } = await resume(await harness(tool), await interrupted())
    expect(byId.get('c1')!.code).toBe(TOOL_OUTCOME_UNKNOWN)
    expect(byId.get('c1')!.message.content).toEqual([{ type: 'text', text: 'Error: tool call was interrupted and left no result; it may or may not have run; check before retrying' }])
    expect(paid).toEqual([])
  })

  it('a reconcile that does not answer within the tool\'s timeoutMs is unknown, and its signal is aborted', async () => {
    let seen: AbortSignal | undefined
    const { tool, paid } = payTool((input) => { seen = input.signal; return new Promise(() => {}) }, { timeoutMs: 20 })
    const { byId } = await resume(await harness(tool), await interrupted())
    expect(byId.get('c1')!.code).toBe(TOOL_OUTCOME_UNKNOWN)
    expect((byId.get('c1')!.message.content[0] as { text: string }).text).toMatch(/did not answer within 20 ms/)
    expect(seen?.aborted).toBe(true)
    expect(paid).toEqual([])
  })

  it('a run aborted while reconcile runs leaves the call unknown; one aborted before asks nothing', async () => {
    const controller = new AbortController()
    const { tool, paid, asked } = payTool((input) => {
      controller.abort()
      return new Promise((resolve) => input.signal.addEventListener('abort', () => resolve({ ran: false })))
    })
    const { byId } = await resume(await harness(tool), await interrupted(), controller.signal)
    expect(byId.get('c1')!.code).toBe(TOOL_OUTCOME_UNKNOWN)
    expect((byId.get('c1')!.message.content[0] as { text: string }).text).toMatch(/the run was aborted while its reconcile ran/)
    expect(paid).toEqual([])
    const before = payTool(() => ({ ran: false }))
    const aborted = await resume(await harness(before.tool), await interrupted(), AbortSignal.abort())
    expect(aborted.byId.get('c1')!.code).toBe(TOOL_OUTCOME_UNKNOWN)
    expect(before.asked).toEqual([])
    expect(asked).toHaveLength(1)
  })

  it('is asked before anything else of the run: before the new input and any model request', async () => {
    const order: string[] = []
    const { tool } = payTool(() => { order.push('reconcile'); return { ran: true, value: { receipt: 'x' } } })
    const ctx = await harness(tool)
    const session = await interrupted()
    const { agent, provider } = scriptedAgent(ctx, [], { session })
    const append = session.append.bind(session)
    session.append = (entry) => { order.push(entry.type === 'message' ? `message ${entry.message.role}` : entry.type); return append(entry) }
    await agent.run('next')
    expect(order.slice(0, 5)).toEqual(['reconcile', 'tool/result', 'tool/result', 'turn/end', 'message user'])
    expect(provider.requests).toHaveLength(1)
  })
})
