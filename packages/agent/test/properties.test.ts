import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Context } from 'cordis'
import { MAX_ARGUMENT_DEPTH, defineTool, type ToolExec } from '@rein/kernel'
import { callMessage, scripted, toolCall, validateTranscript } from '@rein/testing'
import { createAgent, memorySession, type NewSessionEntry, type SessionEntry } from '../src/index.js'
import { SessionLog } from '../src/session-log.js'
import { kernelContext, settle } from './helpers.js'

/**
 * `holdTicks`: how long a `tools/hand-off` hold keeps the call's result from the agent (0: no hold).
 * `repeatsId`: the call has the id of the call before it (the model repeated an id); `tooDeep`:
 * its arguments nest deeper than the kernel accepts.
 */
interface CallSpec {
  safe: boolean, ticks: number, fails: boolean, deps: number[], refs: boolean, holdTicks: number, repeatsId: boolean, tooDeep: boolean
}
interface BatchSpec { calls: CallSpec[], cap: number, abortAt: number | null }
/**
 * `final`: the kernel fixed the call's result (its `tools/result` observers ran); `call-end`:
 * the agent has the result (after any `tools/hand-off` hold), which is when dependents may use it.
 */
type Mark = { kind: 'start' | 'end' | 'final' | 'call-end' | 'pre-in' | 'post-in' | 'post-out', index: number }

const batchArb: fc.Arbitrary<BatchSpec> = fc.integer({ min: 1, max: 9 }).chain((n) => fc.record({
  calls: fc.array(fc.record({
    safe: fc.boolean(),
    ticks: fc.nat(4),
    fails: fc.integer({ min: 0, max: 9 }).map((x) => x < 2),
    deps: fc.uniqueArray(fc.nat(n - 1), { maxLength: 3 }),
    refs: fc.boolean(),
    holdTicks: fc.nat(3),
    repeatsId: fc.integer({ min: 0, max: 9 }).map((x) => x < 1),
    tooDeep: fc.integer({ min: 0, max: 19 }).map((x) => x < 1),
  }), { minLength: n, maxLength: n }),
  cap: fc.integer({ min: 1, max: 4 }),
  abortAt: fc.option(fc.nat(4 * n), { nil: null }),
}))

/** The id of each call: its own, `c<i>`, or the id of the call before it. */
const idsOf = (spec: BatchSpec) => spec.calls.reduce<string[]>((ids, c, i) => [...ids, c.repeatsId && i > 0 ? ids[i - 1]! : `c${i}`], [])

const argsOf = (spec: CallSpec) => {
  const base: Record<string, unknown> = { ticks: spec.ticks, fails: spec.fails, safe: spec.safe }
  if (spec.tooDeep) base.nest = JSON.parse('['.repeat(MAX_ARGUMENT_DEPTH) + ']'.repeat(MAX_ARGUMENT_DEPTH))
  if (spec.deps.length === 0) return base
  if (!spec.refs) return { ...base, $depends_on: spec.deps.map((d) => `c${d}`) }
  return { ...base, ref: spec.deps.map((d) => `\${c${d}.result.id}`).join(' ') }
}

async function runBatch(spec: BatchSpec) {
  const ctx = await kernelContext()
  const trace: Mark[] = []
  const controller = new AbortController()
  const mark = (kind: Mark['kind'], index: number) => {
    trace.push({ kind, index })
    if (trace.length === spec.abortAt) controller.abort()
  }
  const indexOf = (exec: ToolExec) => exec.index!
  ctx.plugin({
    name: 'props', inject: ['tools'],
    apply(c: Context) {
      c.tools.register(defineTool({
        name: 'work', description: 'test work', parameters: { type: 'object' },
        isConcurrencySafe: (args) => args.safe === true,
        async execute(args: { ticks: number, fails: boolean, safe?: boolean }, exec) {
          mark('start', indexOf(exec))
          try {
            for (let i = 0; i < args.ticks; i++) {
              await settle()
              exec.signal.throwIfAborted()
            }
            if (args.fails) throw new Error('boom')
            return { id: exec.id }
          } finally {
            mark('end', indexOf(exec))
          }
        },
      }))
      c.on('tools/pre-execute', async (exec: ToolExec, next) => {
        mark('pre-in', indexOf(exec))
        await settle()
        return next()
      })
      c.on('tools/post-execute', async (exec: ToolExec, _result, next) => {
        mark('post-in', indexOf(exec))
        await settle()
        mark('post-out', indexOf(exec))
        return next()
      })
      c.on('tools/result', (exec: ToolExec) => mark('final', indexOf(exec)))
      c.on('tools/hand-off', async (exec: ToolExec) => {
        for (let i = 0; i < spec.calls[indexOf(exec)].holdTicks; i++) await settle()
      })
      c.on('agent/call-end', (event) => mark('call-end', event.index))
    },
  })
  await ctx.start()
  const session = memorySession()
  const ids = idsOf(spec)
  const calls = spec.calls.map((c, i) => toolCall(ids[i]!, 'work', argsOf(c)))
  const agent = createAgent(ctx, { provider: scripted([callMessage(calls)]), session, maxParallelToolCalls: spec.cap })
  // Every entry the scheduler says it built for the store to keep (`owned`: its values frozen, so the memory store neither copies nor walks it).
  const builtFrozen: NewSessionEntry[] = []
  const add = SessionLog.prototype.add
  SessionLog.prototype.add = function (entry, owned) {
    if (owned) builtFrozen.push(entry)
    return add.call(this, entry, owned)
  }
  try {
    const outcome = await agent.run('go', { signal: controller.signal })
    return { outcome, trace, entries: await session.load(), builtFrozen }
  } finally {
    SessionLog.prototype.add = add
  }
}

/** Whether `value` and everything inside it is frozen. */
function frozenThrough(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true
  return Object.isFrozen(value) && Object.values(value).every(frozenThrough)
}

const position = (trace: Mark[], kind: Mark['kind'], index: number) => trace.findIndex((m) => m.kind === kind && m.index === index)

function check(spec: BatchSpec, { outcome, trace, entries, builtFrozen }: Awaited<ReturnType<typeof runBatch>>) {
  const n = spec.calls.length
  expect(builtFrozen.length).toBeGreaterThan(0)
  // Frozen all the way down, the entry itself too: the memory store kept that very object.
  for (const entry of builtFrozen) expect(frozenThrough(entry), `${entry.type} of call #${(entry as { index?: number }).index}`).toBe(true)
  expect(['completed', 'aborted']).toContain(outcome.kind)
  expect(validateTranscript(outcome.messages)).toEqual([])
  const results = entries.filter((e): e is Extract<SessionEntry, { type: 'tool/result' }> => e.type === 'tool/result')
  expect(results.map((e) => e.index)).toEqual([...Array(n).keys()])
  expect(entries.filter((e) => e.type === 'tool/call').map((e) => e.type === 'tool/call' && e.index).sort((a, b) => +a - +b))
    .toEqual([...Array(n).keys()])
  const dependedOn = new Set(spec.calls.flatMap((c) => c.deps))
  let running = 0
  let inPost = 0
  let lastPre = -1
  trace.forEach((m, at) => {
    if (m.kind === 'pre-in') lastPre = m.index
    if (m.kind === 'start') {
      expect(lastPre, `another call entered pre-execute between c${m.index}'s pre-execute and its body`).toBe(m.index)
      running++
      expect(running).toBeLessThanOrEqual(spec.cap)
      const { safe, deps } = spec.calls[m.index]
      for (const d of deps) expect(position(trace, 'call-end', d), `c${m.index} started before dep c${d} reached the agent`).toBeLessThan(at)
      for (let j = 0; j < m.index; j++) {
        if (safe && spec.calls[j].safe) continue
        expect(position(trace, 'final', j), `c${m.index} started before its barrier c${j} was final`).toBeLessThan(at)
      }
    }
    if (m.kind === 'end') running--
    if (m.kind === 'post-in') {
      expect(inPost++).toBe(0)
      if (!dependedOn.has(m.index)) {
        for (let j = 0; j < m.index; j++) expect(position(trace, 'final', j), `post of c${m.index} before c${j} was final`).toBeLessThan(at)
      }
    }
    if (m.kind === 'post-out') inPost--
  })
  const code = (i: number) => results[i].code
  const ids = idsOf(spec)
  for (let i = 0; i < n; i++) {
    const ran = position(trace, 'start', i) >= 0
    const deps = spec.calls[i].deps
    if (ran) for (const d of deps) expect(code(d)).toBeUndefined()
    if (code(i) === 'DEPENDENCY_FAILED') expect(deps.some((d) => code(d) !== undefined)).toBe(true)
    if (spec.abortAt === null && code(i) === undefined) expect(ran).toBe(true)
    if (spec.abortAt === null && !ran) expect(['INVALID_PLAN', 'DEPENDENCY_FAILED', 'INVALID_ARGS']).toContain(code(i))
    // A repeated id: that call never runs, whatever else happens; arguments nested too deep never reach a body.
    if (ids.indexOf(ids[i]!) < i) expect({ ran, code: code(i) }).toEqual({ ran: false, code: 'INVALID_PLAN' })
    if (spec.calls[i].tooDeep) expect(ran).toBe(false)
  }
}

describe('scheduler properties', () => {
  it('for random batches: one result per call, model-order commits, deps, barriers, the cap and stage order hold', async () => {
    await fc.assert(fc.asyncProperty(batchArb, async (spec) => check(spec, await runBatch(spec))), { numRuns: 200 })
  }, 120_000)
})
