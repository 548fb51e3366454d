/**
 * A harness for durable approvals: tools whose bodies record each run in a ledger (`read` and
 * `note` parallel, `write` and `push` exclusive; a `reconcile` for those given one), a policy that asks about every call of the
 * tools named in `asks` (its rule is `rule`, changeable), and an approval service that speaks the
 * kernel's contract as permission-guard does: the answer recorded in the session first, then
 * park (in park mode), then the live asker (none: deny).
 */
import type { Context } from 'cordis'
import { defineTool, type ApprovalAnswer, type ApprovalReply, type ApprovalRequest, type ApprovalService, type Json, type ReconcileAnswer } from '@rein/kernel'
import { kernelContext } from './helpers.js'

export interface ApprovalHarness {
  ctx: Context
  /** `<tool>:<canonical arguments>` for every body that ran, in order. */
  ledger: string[]
  /** The call id of every body that ran, in order. */
  ran: string[]
  /** Which tools ask, and the rule they ask under (change it to change the policy). */
  policy: { asks: Set<string>, rule: string }
  /** The live asker, when there is one; every request it was asked, by call id. */
  live: { ask?: (request: ApprovalRequest) => ApprovalReply | Promise<ApprovalReply>, asked: string[] }
  /** Every request the service answered, as `<call id>:<answer>` (`recorded` when from the session). */
  answers: string[]
  /** Called as a body starts, with its call id: a promise it returns holds the body until it settles. */
  hold?: (callId: string) => Promise<void> | undefined
}

/** What a tool's `reconcile` answers, by tool name (none: the tool has no `reconcile`). */
export type Reconciles = Record<string, () => ReconcileAnswer<Json>>

export async function approvalHarness(asks: string[] = ['push'], reconciles: Reconciles = {}): Promise<ApprovalHarness> {
  const ctx = await kernelContext()
  const h: ApprovalHarness = { ctx, ledger: [], ran: [], policy: { asks: new Set(asks), rule: 'rule-1' }, live: { asked: [] }, answers: [] }
  const tool = (name: string, safe: boolean) => defineTool({
    name,
    description: name,
    parameters: { type: 'object', properties: { x: {} } },
    isConcurrencySafe: () => safe,
    ...(reconciles[name] ? { reconcile: reconciles[name] } : {}),
    execute: (args: { x?: Json }, exec) => {
      const body = () => {
        h.ledger.push(`${name}:${JSON.stringify(args.x ?? null)}`)
        h.ran.push(exec.id)
        return { [name]: args.x ?? null }
      }
      const held = h.hold?.(exec.id)
      return held ? held.then(body) : body()
    },
  })
  const service: ApprovalService = {
    async request(request) {
      const approvals = request.exec.session?.approvals
      const recorded = approvals?.answered(request, h.policy.rule)
      if (recorded) {
        h.answers.push(`${request.exec.id}:recorded ${recorded.answer}`)
        return recorded.answer
      }
      if (approvals?.mode === 'park') return 'park'
      h.live.asked.push(request.exec.id)
      const reply: ApprovalReply = h.live.ask ? await h.live.ask(request) : 'deny'
      h.answers.push(`${request.exec.id}:${reply}`)
      return reply
    },
  }
  ctx.plugin({
    name: 'approval-policy',
    inject: ['tools'],
    apply(c: Context) {
      for (const [name, safe] of [['read', true], ['note', true], ['write', false], ['push', false]] as const) c.tools.register(tool(name, safe))
      c.on('tools/pre-execute', async (exec, next) => h.policy.asks.has(exec.name) ? { kind: 'ask', reason: `${exec.name} needs a person` } : next())
      c.set('approval', service)
    },
  })
  await ctx.start()
  return h
}

/** A tool call of the model, its arguments as JSON text. */
export const call = (id: string, name: string, x?: Json) => ({ id, name, arguments: JSON.stringify(x === undefined ? {} : { x }) })

/** A live asker answering from a table by call id (deny when absent). */
export const answering = (table: Record<string, ApprovalAnswer>) => (request: ApprovalRequest): ApprovalAnswer => table[request.exec.id] ?? 'deny'
