import fc from 'fast-check'
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { defineTool, isContent, type ToolExecutionResult } from '../src/index.js'
import { hostileValues, makeKernel, plug } from './helpers.js'

const stages = ['pre', 'exec', 'post', 'guard', 'result', 'hold'] as const
// `handOn` returns the promise next() gave it, from a handler that is not async: the kernel's
// pass-through path, which costs no promise and keeps a decision stage synchronous.
const behaviours = ['pass', 'handOn', 'allow', 'deny', 'ask', 'throw', 'replace', 'block', 'garbage', 'nextTwice', 'throwHostile', 'returnHostile', 'swapSignal'] as const
const hostile = hostileValues()
const hostileKinds = Object.keys(hostile)
type Layer = { stage: typeof stages[number], behaviour: typeof behaviours[number], prepend: boolean, hostile: string }

const layer = fc.record({ stage: fc.constantFrom(...stages), behaviour: fc.constantFrom(...behaviours), prepend: fc.boolean(), hostile: fc.constantFrom(...hostileKinds) })
const toolBehaviour = fc.constantFrom('return', 'throw', 'invalid', 'slow', 'badJson', 'throwHostile', 'returnHostile', 'ignoreSignal')
/** What the caller hands over besides the call: usually good; else arguments too deep or unreadable, or a signal that is none. */
const input = fc.constantFrom('good', 'good', 'good', 'good', 'tooDeep', 'unreadable', 'notASignal')

/** Installs one random layer as a plugin; every layer is a small, plausible (or broken) policy. */
async function install(ctx: Context, l: Layer, i: number) {
  await plug(ctx, `p${i}`, (ctx) => {
    const opts = { prepend: l.prepend }
    if (l.behaviour === 'handOn' && l.stage !== 'guard' && l.stage !== 'result' && l.stage !== 'hold') {
      if (l.stage === 'pre') ctx.on('tools/pre-execute', (_e, next) => next(), opts)
      if (l.stage === 'exec') ctx.on('tools/execute', (_e, next) => next(), opts)
      if (l.stage === 'post') ctx.on('tools/post-execute', (_e, _r, next) => next(), opts)
      return
    }
    switch (l.stage) {
      case 'hold':
        ctx.on('tools/hand-off', () => {
          switch (l.behaviour) {
            case 'throw': throw new Error('hold broke')
            case 'throwHostile': throw hostile[l.hostile]!()
            case 'returnHostile': return hostile[l.hostile]!() as never
            case 'garbage': return Promise.reject(new Error('write failed'))
            case 'deny': return new Promise((resolve) => setTimeout(resolve, 1))
            default: return Promise.resolve()
          }
        }, opts)
        return
      case 'guard':
        ctx.tools.guard(() => {
          if (l.behaviour === 'deny') return `guard p${i} denies`
          if (l.behaviour === 'throw') throw new Error('guard broke')
          if (l.behaviour === 'throwHostile') throw hostile[l.hostile]!()
          if (l.behaviour === 'returnHostile') return hostile[l.hostile]!() as string
          return undefined
        })
        return
      case 'result':
        ctx.on('tools/result', async () => {
          if (l.behaviour === 'throw') throw new Error('observer broke')
          if (l.behaviour === 'throwHostile') throw hostile[l.hostile]!()
        }, opts)
        if (l.behaviour === 'returnHostile') ctx.on('tools/result', () => { throw hostile[l.hostile]!() }, opts)
        return
      case 'pre':
        ctx.on('tools/pre-execute', async (_e, next) => {
          switch (l.behaviour) {
            case 'allow': return { kind: 'allow' }
            case 'deny': return { kind: 'deny', reason: `p${i} denies` }
            case 'ask': return { kind: 'ask', reason: 'p' }
            case 'throw': throw new Error('pre broke')
            case 'throwHostile': throw hostile[l.hostile]!()
            case 'returnHostile': return hostile[l.hostile]!() as never
            case 'garbage': return 42 as never
            case 'nextTwice': await next(); return next()
            default: return next()
          }
        }, opts)
        return
      case 'exec':
        ctx.on('tools/execute', async (_e, next) => {
          switch (l.behaviour) {
            case 'throw': throw new Error('exec broke')
            case 'throwHostile': throw hostile[l.hostile]!()
            case 'returnHostile': return hostile[l.hostile]!() as never
            case 'swapSignal': {
              const saved = _e.signal
              _e.signal = new AbortController().signal
              try { return await next() } finally { _e.signal = saved }
            }
            case 'replace': return { isError: false, value: 'cached', content: [{ type: 'text', text: 'cached' }] }
            case 'garbage': return { isError: 'maybe' } as never
            case 'nextTwice': await next(); return next()
            default: return next()
          }
        }, opts)
        return
      case 'post':
        ctx.on('tools/post-execute', async (_e, _r, next) => {
          switch (l.behaviour) {
            case 'throw': throw new Error('post broke')
            case 'throwHostile': throw hostile[l.hostile]!()
            case 'returnHostile': return hostile[l.hostile]!() as never
            case 'replace': return { kind: 'accept', content: [{ type: 'text', text: 'replaced' }], value: 'replaced' }
            case 'block': return { kind: 'block', feedback: `p${i} blocks` }
            case 'garbage': return { kind: 'accept', content: 'not blocks' } as never
            case 'nextTwice': await next(); return next()
            default: return next()
          }
        }, opts)
    }
  })
}

function wellFormed(result: ToolExecutionResult) {
  expect(Object.isFrozen(result)).toBe(true)
  expect(isContent(result.content)).toBe(true)
  expect(result.content.length).toBeGreaterThan(0)
  if (result.isError) {
    expect(typeof result.error.message).toBe('string')
    expect(result.content[0]).toEqual({ type: 'text', text: expect.stringMatching(/^Error: /) })
  } else {
    expect(result).toHaveProperty('value')
  }
}

describe('pipeline properties', { timeout: 120_000 }, () => {
  it('always resolves with exactly one well-formed result; a guard deny is never a success, whatever plugins, holds and tools throw or return', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(layer, { maxLength: 8 }), toolBehaviour, fc.constantFrom(...hostileKinds), fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }), input,
      async (layers, behaviour, tool, abortAfterMs, given) => {
        const ctx = await makeKernel({ abandonAfterMs: 5 })
        let bodies = 0
        for (const [i, l] of layers.entries()) await install(ctx, l, i)
        ctx.tools.register(defineTool({
          name: 't', description: 'random', parameters: { type: 'object' }, output: { schema: { type: 'string' } },
          execute: async (_args, exec) => {
            bodies++
            switch (behaviour) {
              case 'throw': throw new Error('tool broke')
              case 'throwHostile': throw hostile[tool]!()
              case 'returnHostile': return hostile[tool]!()
              // Ignores every signal; bounded so that a run without an abort still ends.
              case 'ignoreSignal': return new Promise<string>((resolve) => setTimeout(() => resolve('late'), 12))
              case 'invalid': return 7
              case 'slow': return new Promise<string>((resolve, reject) => {
                const timer = setTimeout(() => resolve('slow done'), 5)
                exec.signal.addEventListener('abort', () => { clearTimeout(timer); reject(exec.signal.reason) })
              })
              default: return 'ok'
            }
          },
        }))
        let observed = 0
        await plug(ctx, 'counter', (ctx) => { ctx.on('tools/result', () => { observed++ }) })
        const controller = new AbortController()
        if (abortAfterMs !== undefined) setTimeout(() => controller.abort(), abortAfterMs)
        const args = behaviour === 'badJson' ? '{oops' : given === 'tooDeep' ? `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}` : '{}'
        const call = given === 'unreadable'
          ? { id: 'c', name: 't', get arguments(): string { throw new Error('unreadable') } }
          : { id: 'c', name: 't', arguments: args }
        const signal = given === 'notASignal' ? controller as never : controller.signal
        const result = await ctx.tools.execute(call, { signal })
        wellFormed(result)
        // Arguments the kernel refuses, and a signal that is none, never let the body run.
        if (given !== 'good') {
          expect(result.isError).toBe(true)
          expect(bodies).toBe(0)
        }
        if (given === 'notASignal') expect(result.isError && result.error.info?.code).toBe('PIPELINE_FAILED')
        expect(observed).toBe(1)
        // A result that arrives after the call was given up on is never observed a second time.
        if (behaviour === 'ignoreSignal') await new Promise((resolve) => setTimeout(resolve, 15))
        expect(observed).toBe(1)
        const guardDenies = layers.some((l) => l.stage === 'guard' && (l.behaviour === 'deny' || l.behaviour === 'throw'))
        if (guardDenies) expect(result.isError).toBe(true)
        await ctx.stop()
      }), { numRuns: 150 })
  })
})
