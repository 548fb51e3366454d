/**
 * The property of durable approvals (DESIGN.md §7.2): for random batches (parallel and exclusive
 * calls, references, asks at random positions, random answers given a few at a time, the agent
 * replaced by a new one between rounds), the final transcript is the one a live asker giving the
 * same answers produces, and no side effect happens twice. With the store dying at a random
 * append (a process killed), no side effect happens twice either, and the session ends valid.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ApprovalAnswer } from '@rein/kernel'
import { scripted, validateTranscript } from '@rein/testing'
import { answerApproval, createAgent, memorySession, pendingApprovals, type Agent, type RunOutcome, type SessionStore } from '../src/index.js'
import { approvalHarness, call, type ApprovalHarness } from './approval-harness.js'

const TOOLS = ['read', 'note', 'write', 'push'] as const // note and push ask; read and note are parallel
interface CallSpec { tool: typeof TOOLS[number], ref: number | null, answer: ApprovalAnswer }
interface Spec { calls: CallSpec[], rounds: number[][], agentPerRound: boolean[], cap: number }

const spec: fc.Arbitrary<Spec> = fc.integer({ min: 1, max: 7 }).chain((n) => fc.record({
  calls: fc.array(fc.record({
    tool: fc.constantFrom(...TOOLS),
    ref: fc.option(fc.nat(n - 1), { nil: null, freq: 3 }),
    answer: fc.constantFrom<ApprovalAnswer>('allow-once', 'allow-once', 'deny'),
  }), { minLength: n, maxLength: n }),
  // Which pending requests each round answers (by their position in the pending list, wrapped).
  rounds: fc.array(fc.array(fc.nat(6), { minLength: 1, maxLength: 3 }), { minLength: n + 1, maxLength: n + 1 }),
  agentPerRound: fc.array(fc.boolean(), { minLength: n + 2, maxLength: n + 2 }),
  cap: fc.integer({ min: 1, max: 4 }),
}))

/** The model's batch: call i is `c<i>` to its tool; a reference to an earlier call's value where drawn. */
const batchOf = (s: Spec) => [{
  role: 'assistant' as const, content: '',
  toolCalls: s.calls.map((c, i) => call(`c${i}`, c.tool, c.ref !== null && c.ref < i ? `\${c${c.ref}.result.${s.calls[c.ref]!.tool}}` : i)),
}]

const answerOf = (s: Spec, callId: string) => s.calls[Number(callId.slice(1))]!.answer

async function live(s: Spec) {
  const h = await approvalHarness(['note', 'push'])
  h.live.ask = (request) => answerOf(s, request.exec.id)
  const outcome = await createAgent(h.ctx, { provider: scripted(batchOf(s)), maxParallelToolCalls: s.cap }).run('go')
  return { outcome, ledger: h.ledger, ran: h.ran }
}

/** A store that dies at its `after`-th append: that append and every later one fail, as if the process was killed. */
function dying(store: SessionStore, after: number): SessionStore & { dead: () => boolean } {
  let appends = 0
  return {
    id: store.id,
    load: () => store.load(),
    append(entry) {
      if (++appends > after) return Promise.reject(new Error('the process was killed'))
      return store.append(entry)
    },
    dead: () => appends > after,
  }
}

/** Parks, answers round by round, and continues (a new agent when drawn) until the run completes. */
async function parked(s: Spec, killAt?: number) {
  const h: ApprovalHarness = await approvalHarness(['note', 'push'])
  const store = memorySession()
  const provider = scripted(batchOf(s))
  const agentOn = (session: SessionStore) => createAgent(h.ctx, { provider, session, approvals: 'park', maxParallelToolCalls: s.cap })
  const first = killAt === undefined ? store : dying(store, killAt)
  let agent: Agent = agentOn(first)
  let outcome: RunOutcome = await agent.run('go')
  for (let round = 0; outcome.kind !== 'completed'; round++) {
    if (round > 3 * s.calls.length + 6) throw new Error(`no end after ${round} rounds: ${outcome.kind} ${outcome.error?.message ?? ''}`)
    if (outcome.kind === 'awaiting-approval') {
      const pending = await pendingApprovals(store)
      const picks = s.rounds[round % s.rounds.length]!
      const chosen = new Set(picks.map((p) => pending[p % pending.length]!))
      for (const request of chosen) await answerApproval(store, request.id, answerOf(s, request.callId))
    } else if (outcome.kind !== 'error' || killAt === undefined) {
      throw new Error(`unexpected outcome ${outcome.kind}: ${outcome.error?.message ?? ''}`)
    }
    if (outcome.kind === 'error' || s.agentPerRound[round % s.agentPerRound.length]) agent = agentOn(store)
    outcome = await agent.run()
  }
  return { outcome, ledger: h.ledger, ran: h.ran, entries: await store.load() }
}

const once = (ledger: string[]) => new Set(ledger).size === ledger.length

/** `work`, or a failure naming the hang when it takes longer than `ms` (a run that never ends is a bug). */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const hang = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no end after ${ms}ms`)), ms) })
  try {
    return await Promise.race([work, hang])
  } finally {
    clearTimeout(timer)
  }
}

describe('durable approvals, property', () => {
  it('parking and answering later gives the transcript a live asker gives, with every side effect once', async () => {
    await fc.assert(fc.asyncProperty(spec, async (s) => {
      const reference = await within(10_000, live(s))
      const run = await within(10_000, parked(s))
      expect(run.outcome.messages).toEqual(reference.outcome.messages)
      expect(once(run.ran)).toBe(true)
      expect([...run.ledger].sort()).toEqual([...reference.ledger].sort())
    }), { numRuns: Number(process.env.REIN_APPROVAL_RUNS ?? 60), endOnFailure: process.env.REIN_APPROVAL_SHRINK === "0" })
  }, 120_000)

  it('with the process killed at a random append, nothing runs twice and the session ends valid', async () => {
    await fc.assert(fc.asyncProperty(spec, fc.nat(30), async (s, killAt) => {
      const run = await within(10_000, parked(s, killAt))
      expect(once(run.ran)).toBe(true)
      expect(validateTranscript(run.outcome.messages)).toEqual([])
    }), { numRuns: Number(process.env.REIN_APPROVAL_RUNS ?? 60), endOnFailure: process.env.REIN_APPROVAL_SHRINK === "0" })
  }, 120_000)
})
