/**
 * Seeded fault injection for whole batches: random tools (that return, throw, return or throw
 * hostile values, ignore their signal, or hang), random broken plugins on every stage, an
 * approval service that answers, throws or never answers, a plugin that fails to start, and
 * aborts at random moments. `runFaultyBatch` runs one such batch through a real kernel and
 * agent; `faultProblems` lists every invariant the run broke (empty when all hold).
 */
import fc from 'fast-check'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, type ToolExec } from '@rein/kernel'
import { callMessage, scripted, toolCall, validateTranscript } from '@rein/testing'
import { createAgent, memorySession, type RunOutcome, type SessionEntry } from '../src/index.js'

const hostile: Record<string, () => unknown> = {
  nullProto: () => Object.create(null),
  throwingMessage: () => Object.defineProperty(new Error('x'), 'message', { get() { throw new Error('getter') } }),
  revokedProxy: () => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy },
  trappedProxy: () => new Proxy({}, { get() { throw new Error('trap') }, getPrototypeOf() { throw new Error('trap') } }),
  bareObject: () => ({ not: 'an error' }),
  undefined: () => undefined,
}
const hostileKind = fc.constantFrom(...Object.keys(hostile))

const bodies = ['ok', 'throw', 'throwHostile', 'returnHostile', 'slow', 'ignoreSignal', 'hang'] as const
const argKinds = ['valid', 'valid', 'valid', 'badJson', 'proto', 'unknownTool'] as const
const stages = ['pre', 'exec', 'post', 'guard', 'result'] as const
const layerBehaviours = ['pass', 'deny', 'ask', 'throw', 'throwHostile', 'returnHostile', 'swapSignal', 'hang'] as const
const approvals = ['allow', 'deny', 'throw', 'hang', 'none'] as const

interface CallSpec { body: typeof bodies[number], args: typeof argKinds[number], safe: boolean, hostile: string }
interface LayerSpec { stage: typeof stages[number], behaviour: typeof layerBehaviours[number], hostile: string }
export interface FaultyBatch {
  calls: CallSpec[]
  layers: LayerSpec[]
  approval: typeof approvals[number]
  brokenPlugin: boolean
  /** Milliseconds after the run starts when it is aborted, or null. */
  abortAfterMs: number | null
  cap: number
}

/** Random batches. Anything that can wait forever is only drawn when the batch is aborted. */
export const faultyBatch: fc.Arbitrary<FaultyBatch> = fc.record({
  calls: fc.array(fc.record({ body: fc.constantFrom(...bodies), args: fc.constantFrom(...argKinds), safe: fc.boolean(), hostile: hostileKind }), { minLength: 1, maxLength: 6 }),
  layers: fc.array(fc.record({ stage: fc.constantFrom(...stages), behaviour: fc.constantFrom(...layerBehaviours), hostile: hostileKind }), { maxLength: 5 }),
  approval: fc.constantFrom(...approvals),
  brokenPlugin: fc.integer({ min: 0, max: 19 }).map((x) => x === 0),
  abortAfterMs: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }),
  cap: fc.integer({ min: 1, max: 4 }),
}).map((batch) => batch.abortAfterMs !== null ? batch : {
  ...batch,
  calls: batch.calls.map((c) => c.body === 'hang' ? { ...c, body: 'slow' as const } : c),
  layers: batch.layers.filter((l) => l.behaviour !== 'hang'),
  approval: batch.approval === 'hang' ? 'deny' as const : batch.approval,
})

export interface FaultyRun {
  outcome: RunOutcome
  entries: SessionEntry[]
  /** Indices of the calls whose body was entered. */
  ran: Set<number>
}

/** Runs one batch through a fresh kernel (abandonAfterMs 5) and agent; releases every hung body after. */
export async function runFaultyBatch(batch: FaultyBatch): Promise<FaultyRun> {
  const ctx = new Context()
  ctx.plugin(kernel, { abandonAfterMs: 5 })
  await ctx.start()
  const ran = new Set<number>()
  const release: (() => void)[] = []
  const never = <T>() => new Promise<T>((resolve) => { release.push(() => resolve(undefined as T)) })
  const indexOf = (exec: ToolExec) => Number(String(exec.id).slice(1))
  ctx.plugin({
    name: 'faulty-tools', inject: ['tools'],
    apply(c: Context) {
      c.tools.register(defineTool({
        name: 'work', description: 'does faulty work', parameters: { type: 'object', properties: { i: { type: 'number' } } },
        isConcurrencySafe: (args: { i: number }) => batch.calls[args.i]?.safe === true,
        async execute(args: { i: number }, exec) {
          ran.add(indexOf(exec))
          const spec = batch.calls[args.i]!
          switch (spec.body) {
            case 'ok': return { i: args.i }
            case 'throw': throw new Error(`work ${args.i} failed`)
            case 'throwHostile': throw hostile[spec.hostile]!()
            case 'returnHostile': return hostile[spec.hostile]!()
            case 'slow': await new Promise((resolve, reject) => {
              const timer = setTimeout(resolve, 1)
              exec.signal.addEventListener('abort', () => { clearTimeout(timer); reject(exec.signal.reason) }, { once: true })
            }); return { i: args.i }
            case 'ignoreSignal': await new Promise((resolve) => setTimeout(resolve, 2)); return { i: args.i }
            case 'hang': return never()
          }
        },
      }))
    },
  })
  batch.layers.forEach((layer, n) => ctx.plugin({ name: `layer${n}`, inject: ['tools'], apply: (c: Context) => installLayer(c, layer, never) }))
  if (batch.approval !== 'none') {
    ctx.plugin({
      name: 'approver',
      apply(c: Context) {
        c.set('approval', {
          request: async () => {
            switch (batch.approval) {
              case 'allow': return 'allow-once'
              case 'deny': return 'deny'
              case 'throw': throw hostile.nullProto!()
              default: return never()
            }
          },
        })
      },
    })
  }
  if (batch.brokenPlugin) ctx.plugin({ name: 'broken', apply() { throw new Error('could not start') } })
  await ctx.start()

  const calls = batch.calls.map((spec, i) => {
    const args = { i }
    switch (spec.args) {
      case 'badJson': return toolCall(`c${i}`, 'work', '{"i":')
      case 'proto': return toolCall(`c${i}`, 'work', `{"i":${i},"__proto__":{"i":0}}`)
      case 'unknownTool': return toolCall(`c${i}`, 'nope', args)
      default: return toolCall(`c${i}`, 'work', args)
    }
  })
  const session = memorySession()
  const agent = createAgent(ctx, { provider: scripted([callMessage(calls)]), session, maxParallelToolCalls: batch.cap })
  const controller = new AbortController()
  const timer = batch.abortAfterMs === null ? undefined : setTimeout(() => controller.abort(), batch.abortAfterMs)
  try {
    const outcome = await agent.run('go', { signal: controller.signal })
    return { outcome, entries: await session.load(), ran }
  } finally {
    clearTimeout(timer)
    for (const r of release) r()
    await ctx.stop()
  }
}

function installLayer(c: Context, layer: LayerSpec, never: <T>() => Promise<T>) {
  const fault = () => hostile[layer.hostile]!()
  const common = (): unknown => {
    switch (layer.behaviour) {
      case 'throw': throw new Error(`${layer.stage} broke`)
      case 'throwHostile': throw fault()
      case 'hang': return never()
      default: return undefined
    }
  }
  switch (layer.stage) {
    case 'guard':
      c.tools.guard(async () => {
        if (layer.behaviour === 'deny') return 'a guard denies'
        if (layer.behaviour === 'returnHostile') return fault() as string
        return common() as undefined
      })
      return
    case 'result':
      c.on('tools/result', () => { common() })
      return
    case 'pre':
      c.on('tools/pre-execute', async (_exec, next) => {
        if (layer.behaviour === 'deny') return { kind: 'deny', reason: 'pre denies' }
        if (layer.behaviour === 'ask') return { kind: 'ask', reason: 'check' }
        if (layer.behaviour === 'returnHostile') return fault() as never
        return ((await common()) as undefined) ?? next()
      })
      return
    case 'exec':
      c.on('tools/execute', async (exec, next) => {
        if (layer.behaviour === 'returnHostile') return fault() as never
        if (layer.behaviour === 'swapSignal') {
          const saved = exec.signal
          exec.signal = new AbortController().signal
          try { return await next() } finally { exec.signal = saved }
        }
        return ((await common()) as undefined) ?? next()
      })
      return
    case 'post':
      c.on('tools/post-execute', async (_exec, _result, next) => {
        if (layer.behaviour === 'deny') return { kind: 'block', feedback: 'post blocks' }
        if (layer.behaviour === 'returnHostile') return fault() as never
        return ((await common()) as undefined) ?? next()
      })
  }
}

/** Every invariant the run broke, in words; empty when the run was sound. */
export function faultProblems(batch: FaultyBatch, { outcome, entries, ran }: FaultyRun): string[] {
  const problems: string[] = []
  const n = batch.calls.length
  if (outcome.kind !== 'completed' && outcome.kind !== 'aborted') problems.push(`run ended ${outcome.kind}: ${outcome.error?.message}`)
  problems.push(...validateTranscript(outcome.messages).map((p) => `transcript: ${p}`))
  const results = entries.filter((e): e is Extract<SessionEntry, { type: 'tool/result' }> => e.type === 'tool/result')
  const order = results.map((e) => e.index)
  if (JSON.stringify(order) !== JSON.stringify([...Array(n).keys()])) problems.push(`results committed as [${order}], not once each in model order`)
  const guardFails = batch.layers.some((l) => l.stage === 'guard' && l.behaviour !== 'pass' && l.behaviour !== 'swapSignal' && l.behaviour !== 'ask'
    && !(l.behaviour === 'returnHostile' && l.hostile === 'undefined'))
  const preDenies = batch.layers.some((l) => l.stage === 'pre' && l.behaviour === 'deny')
  results.forEach((r, i) => {
    const denied = guardFails || batch.brokenPlugin || batch.calls[i]!.args !== 'valid'
    if (denied && r.code === undefined) problems.push(`c${i} succeeded although every call must fail (a guard, a closed harness or bad arguments)`)
  })
  for (const i of ran) {
    if (batch.brokenPlugin) problems.push(`c${i}'s body ran in a harness with a plugin that failed to start`)
    if (batch.calls[i]!.args !== 'valid') problems.push(`c${i}'s body ran with arguments that are not valid`)
    if (preDenies && !batch.layers.some((l) => l.stage === 'pre' && l.behaviour !== 'deny' && l.behaviour !== 'pass' && l.behaviour !== 'swapSignal')) {
      problems.push(`c${i}'s body ran although pre-execute denies every call`)
    }
  }
  return problems
}
