/**
 * A crash at any point of a grouping store's life, as a property: the store below writes what
 * was appended while it waited for the event loop in one group and acknowledges the group at its
 * "sync"; a crash drops everything not yet synced and answers nothing more (the process is gone).
 * The agent asks the model again before the sync of a batch's results (docs/ARCHITECTURE.md,
 * "Logging, abort, failure and crashes"), so crashes land in that window too. A second life
 * resumes the durable entries. Whatever the point: every call gets exactly one result, the
 * results of a batch are logged in model order, no call runs twice, a call with a result from
 * before ran once, `TOOL_NOT_STARTED` never ran, a denied call never runs, and no call of the
 * second batch ran before the first batch's results and turn end were durable, even when a
 * write of them failed and the store went on writing later entries.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { defineTool, TOOL_DENIED, TOOL_NOT_STARTED, TOOL_OUTCOME_UNKNOWN, type ToolExec } from '@rein/kernel'
import { callMessage, scripted, textMessage, toolCall, validateTranscript } from '@rein/testing'
import { createAgent, type NewSessionEntry, type SessionEntry, type SessionStore } from '../src/index.js'
import { kernelContext } from './helpers.js'

/**
 * A grouping store over `durable`, which crashes after `crashAfter` groups were synced (and at
 * once when 0). Group number `failing` fails instead: its appends reject, and, unlike the stores
 * rein ships, later groups are still written (the agent must not rely on a store refusing them).
 */
function crashingStore(durable: SessionEntry[], crashAfter: number, failing = -1): SessionStore & { crashed: () => boolean } {
  let queue: { entry: NewSessionEntry, resolve: (entry: SessionEntry) => void, reject: (error: Error) => void }[] = []
  let groups = 0
  let dead = false
  let flushing = false
  const flush = () => {
    if (dead) return
    const group = queue
    queue = []
    flushing = false
    if (groups === failing) {
      groups++
      for (const { reject } of group) reject(new Error('the disk is full'))
      return
    }
    if (groups++ === crashAfter) {
      dead = true
      return
    }
    const stored = group.map(({ entry }, i) => ({ ...entry, seq: durable.length + 1 + i }) as SessionEntry)
    durable.push(...stored)
    group.forEach(({ resolve }, i) => resolve(stored[i]))
  }
  return {
    id: 'crashing',
    crashed: () => dead,
    load: async () => structuredClone(durable),
    append(entry) {
      if (dead) return new Promise(() => {})
      return new Promise((resolve, reject) => {
        queue.push({ entry: structuredClone(entry), resolve, reject })
        if (!flushing) {
          flushing = true
          setImmediate(flush)
        }
      })
    },
  }
}

interface Spec { first: boolean[], second: boolean[], crashAfter: number, failing: number, cap: number, slowModel: boolean }

/** Each call denies (`true`) or runs (`false`). */
const spec: fc.Arbitrary<Spec> = fc.record({
  first: fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
  second: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
  crashAfter: fc.integer({ min: 0, max: 12 }),
  // Mostly no failing group (-1).
  failing: fc.integer({ min: -8, max: 8 }).map((n) => n < 0 ? -1 : n),
  cap: fc.integer({ min: 1, max: 4 }),
  // The second answer comes after the results' group was taken (else it joins that group).
  slowModel: fc.boolean(),
})

async function lives({ first, second, crashAfter, failing, cap, slowModel }: Spec) {
  const durable: SessionEntry[] = []
  const ran: string[] = []
  const problems: string[] = []
  const ctx = await kernelContext()
  ctx.tools.register(defineTool({
    name: 'work', description: 'records that it ran', parameters: { type: 'object' }, isConcurrencySafe: () => true,
    execute: async (args: { deny?: boolean }, exec: ToolExec) => {
      if (exec.id.startsWith('b')) {
        const turnEnd = durable.some((e) => e.type === 'turn/end' && e.turn === 1)
        const results = durable.filter((e) => e.type === 'tool/result' && e.turn === 1).length
        if (!turnEnd || results !== first.length) problems.push(`${exec.id} ran before the first batch's results and turn end were durable`)
      }
      if (args.deny) problems.push(`${exec.id} ran although denied`)
      ran.push(exec.id)
      return exec.id
    },
  }))
  ctx.on('tools/pre-execute', async (exec, next) => (exec.arguments as { deny?: boolean }).deny ? { kind: 'deny', reason: 'denied' } : next())
  const batch = (prefix: string, denies: boolean[]) => callMessage(denies.map((deny, i) => toolCall(`${prefix}${i}`, 'work', { deny })))
  const store = crashingStore(durable, crashAfter, failing)
  const secondAnswer = async () => {
    if (slowModel) await new Promise((resolve) => setTimeout(resolve, 1))
    return batch('b', second)
  }
  const agent = createAgent(ctx, { provider: scripted([batch('a', first), secondAnswer, textMessage('done')]), session: store, maxParallelToolCalls: cap })
  const life = agent.run('go').then((outcome) => {
    if (outcome.kind !== 'completed' && outcome.kind !== 'error') problems.push(`the first life ended ${outcome.kind}`)
  })
  // The first life ends when it completes or its store crashed and nothing moves any more.
  await Promise.race([life, new Promise<void>((resolve) => {
    const poll = () => store.crashed() ? setTimeout(resolve, 5) : setImmediate(poll)
    poll()
  })])
  const ranBefore = [...ran]
  // The second life: a new process's store over what was synced, and a model that only answers.
  const entries = structuredClone(durable)
  const resumed = createAgent(ctx, { provider: scripted([]), session: crashingStore(entries, Number.POSITIVE_INFINITY) })
  const outcome = await resumed.run()
  return { outcome, entries, ran, ranBefore, problems }
}

describe('a crash at any point of the store (a property)', () => {
  it('every call gets one result, in model order; nothing runs twice; a denied call never runs; the next batch waits for the last sync', async () => {
    await fc.assert(fc.asyncProperty(spec, async (s) => {
      const { outcome, entries, ran, ranBefore, problems } = await lives(s)
      expect(problems).toEqual([])
      expect(outcome.kind, outcome.error?.message).toBe('completed')
      expect(validateTranscript(outcome.messages)).toEqual([])
      expect(new Set(ran).size).toBe(ran.length)
      const results = entries.filter((e) => e.type === 'tool/result')
      for (const turn of [1, 2]) {
        const indices = results.filter((e) => e.turn === turn).map((e) => e.index)
        const message = entries.find((e) => e.type === 'message' && e.turn === turn)
        const calls = message?.type === 'message' && message.message.role === 'assistant' ? message.message.toolCalls?.length ?? 0 : 0
        // Exactly one result per call of an assistant message that reached the log, in model order.
        expect(indices).toEqual([...Array(calls).keys()])
      }
      for (const e of results) {
        const id = e.message.toolCallId
        const code = e.code ?? 'ok'
        const denied = (id.startsWith('a') ? s.first : s.second)[Number(id.slice(1))]
        if (code === 'ok') expect(ran.filter((r) => r === id)).toEqual([id])
        if (code === TOOL_NOT_STARTED || code === TOOL_OUTCOME_UNKNOWN) expect(ran.filter((r) => r === id).length).toBe(ranBefore.filter((r) => r === id).length)
        if (code === TOOL_NOT_STARTED) expect(ran).not.toContain(id)
        if (denied) expect([TOOL_DENIED, TOOL_NOT_STARTED, TOOL_OUTCOME_UNKNOWN]).toContain(code)
      }
    }), { numRuns: 150 })
  }, 120_000)
})
