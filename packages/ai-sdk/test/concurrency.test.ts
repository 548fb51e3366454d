/**
 * The calls of one AI SDK step run concurrently; reinTools admits them as rein's agent does:
 * an exclusive call runs alone, parallel calls share. Bodies are held and released by the test
 * (deferreds), so nothing here depends on timing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineTool, type ToolCall } from '@rein/kernel'
import { createHarness } from '@rein/loader'
import * as fsTools from '@rein/tools-fs'
import { generateText, stepCountIs, streamText } from 'ai'
import type { Context } from 'cordis'
import { afterEach, describe, expect, it } from 'vitest'
import { reinTools, type ToolsLike } from '../src/index.js'
import { scriptedModel, toolOutputs } from './model.js'

interface Deferred<T = void> { promise: Promise<T>, resolve: (value: T) => void }
function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => { resolve = r })
  return { promise, resolve }
}

/** Per call id: a deferred resolved when its body starts, and one the test resolves to let it end. */
class Bodies {
  readonly log: string[] = []
  inFlight = 0
  maxInFlight = 0
  private readonly started = new Map<string, Deferred>()
  private readonly finish = new Map<string, Deferred>()
  private slot(map: Map<string, Deferred>, id: string): Deferred {
    if (!map.has(id)) map.set(id, deferred())
    return map.get(id)!
  }
  async run(id: string, signal?: AbortSignal): Promise<string> {
    this.inFlight++
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
    this.log.push(`start ${id}`)
    this.slot(this.started, id).resolve()
    try {
      await new Promise<void>((resolve, reject) => {
        this.slot(this.finish, id).promise.then(resolve)
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true })
      })
      return `done ${id}`
    } finally {
      this.log.push(`end ${id}`)
      this.inFlight--
    }
  }
  hasStarted(id: string): Promise<void> { return this.slot(this.started, id).promise }
  release(id: string): void { this.slot(this.finish, id).resolve() }
}

/** `write` (exclusive: not concurrency-safe) and `read` (parallel), both held by `bodies`. */
function heldTools(bodies: Bodies) {
  return {
    name: 'held-tools',
    inject: ['tools'],
    apply(ctx: Context) {
      ctx.tools.register(defineTool({
        name: 'write', description: 'Writes.', parameters: { type: 'object', properties: { n: { type: 'number' } } },
        execute: (_args: { n?: number }, exec) => bodies.run(exec.id, exec.signal),
      }))
      ctx.tools.register(defineTool({
        name: 'read', description: 'Reads.', parameters: { type: 'object' },
        isConcurrencySafe: () => true,
        execute: (_args, exec) => bodies.run(exec.id, exec.signal),
      }))
    },
  }
}

const disposers: (() => Promise<void>)[] = []
afterEach(async () => { await Promise.all(disposers.splice(0).map((dispose) => dispose())) })

async function heldHarness(bodies: Bodies) {
  const harness = await createHarness({ tools: [heldTools(bodies)] })
  disposers.push(() => harness.dispose())
  return harness
}

describe('reinTools admits the calls of a step by their execution mode', () => {
  it('runs exclusive calls one at a time, in the model\'s order', async () => {
    const bodies = new Bodies()
    const harness = await heldHarness(bodies)
    expect(harness.ctx.tools.executionMode({ id: 'x', name: 'write', arguments: { n: 1 } })).toBe('exclusive')
    const model = scriptedModel([[
      { id: 'w1', name: 'write', input: { n: 1 } },
      { id: 'w2', name: 'write', input: { n: 2 } },
      { id: 'w3', name: 'write', input: { n: 3 } },
    ]])
    const run = generateText({ model, tools: reinTools(harness), stopWhen: stepCountIs(3), prompt: 'go' })
    for (const id of ['w1', 'w2', 'w3']) {
      await bodies.hasStarted(id)
      bodies.release(id)
    }
    expect((await run).text).toBe('done')
    expect(bodies.log).toEqual(['start w1', 'end w1', 'start w2', 'end w2', 'start w3', 'end w3'])
    expect(bodies.maxInFlight).toBe(1)
  })

  it('runs exclusive calls one at a time with streamText too', async () => {
    const bodies = new Bodies()
    const harness = await heldHarness(bodies)
    const model = scriptedModel([[
      { id: 'w1', name: 'write', input: { n: 1 } },
      { id: 'w2', name: 'write', input: { n: 2 } },
    ]])
    const result = streamText({ model, tools: reinTools(harness), stopWhen: stepCountIs(3), prompt: 'go' })
    const text = result.text
    for (const id of ['w1', 'w2']) {
      await bodies.hasStarted(id)
      bodies.release(id)
    }
    expect(await text).toBe('done')
    expect(bodies.log).toEqual(['start w1', 'end w1', 'start w2', 'end w2'])
  })

  it('runs parallel calls together, and an exclusive call between them alone', async () => {
    const bodies = new Bodies()
    const harness = await heldHarness(bodies)
    const model = scriptedModel([[
      { id: 'r1', name: 'read', input: {} },
      { id: 'r2', name: 'read', input: {} },
      { id: 'w1', name: 'write', input: { n: 1 } },
      { id: 'r3', name: 'read', input: {} },
    ]])
    const run = generateText({ model, tools: reinTools(harness), stopWhen: stepCountIs(3), prompt: 'go' })
    // r1 and r2 are both running before either ends: they share.
    await Promise.all([bodies.hasStarted('r1'), bodies.hasStarted('r2')])
    expect(bodies.inFlight).toBe(2)
    bodies.release('r1')
    bodies.release('r2')
    await bodies.hasStarted('w1')
    bodies.release('w1')
    await bodies.hasStarted('r3')
    bodies.release('r3')
    await run
    expect(bodies.log.slice(0, 2).sort()).toEqual(['start r1', 'start r2'])
    expect(bodies.log.slice(2, 4).sort()).toEqual(['end r1', 'end r2'])
    // The write waited for both reads, and the read after it for the write.
    expect(bodies.log.slice(4)).toEqual(['start w1', 'end w1', 'start r3', 'end r3'])
  })

  it('no longer loses one of two edits of one file made in one step', async () => {
    const root = mkdtempSync(join(tmpdir(), 'rein-ai-sdk-edit-'))
    try {
      writeFileSync(join(root, 'f.txt'), 'alpha\nbeta\n')
      const harness = await createHarness({ tools: [[fsTools, { root }]] })
      disposers.push(() => harness.dispose())
      const model = scriptedModel([[
        { id: 'e1', name: 'edit_file', input: { path: 'f.txt', old_string: 'alpha', new_string: 'ALPHA' } },
        { id: 'e2', name: 'edit_file', input: { path: 'f.txt', old_string: 'beta', new_string: 'BETA' } },
      ]])
      const result = await generateText({ model, tools: reinTools(harness), stopWhen: stepCountIs(3), prompt: 'go' })
      expect(result.steps[0].toolResults.map((part) => part.toolCallId)).toEqual(['e1', 'e2'])
      expect(readFileSync(join(root, 'f.txt'), 'utf8')).toBe('ALPHA\nBETA\n')
      const outputs = toolOutputs(model.doGenerateCalls[1].prompt)
      expect(outputs.e1).not.toMatch(/^Error/)
      expect(outputs.e2).not.toMatch(/^Error/)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('settles a call aborted while it waits without running it, and leaves the gate usable', async () => {
    const bodies = new Bodies()
    const harness = await heldHarness(bodies)
    const tools = reinTools(harness)
    const controller = new AbortController()
    const model = scriptedModel([[
      { id: 'w1', name: 'write', input: { n: 1 } },
      { id: 'w2', name: 'write', input: { n: 2 } },
    ]])
    const run = generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'go', abortSignal: controller.signal })
    await bodies.hasStarted('w1')
    controller.abort(new Error('user left'))
    await expect(run).rejects.toThrow('user left')
    expect(bodies.log).toEqual(['start w1', 'end w1'])
    // The same set runs the next request's exclusive call: nothing is left holding the gate.
    const next = scriptedModel([[{ id: 'w3', name: 'write', input: { n: 3 } }]])
    const again = generateText({ model: next, tools, stopWhen: stepCountIs(3), prompt: 'go' })
    await bodies.hasStarted('w3')
    bodies.release('w3')
    expect((await again).text).toBe('done')
  })

  it('gives the gate back when the call throws', async () => {
    const bodies = new Bodies()
    const harness = await heldHarness(bodies)
    const kernel = harness.ctx.tools
    const broken: ToolsLike = {
      specs: () => kernel.specs(),
      executionMode: (call: ToolCall) => kernel.executionMode(call),
      execute: (call, options) => call.id === 'w1' ? Promise.reject(new Error('the pipeline broke')) : kernel.execute(call, options),
    }
    const model = scriptedModel([[
      { id: 'w1', name: 'write', input: { n: 1 } },
      { id: 'w2', name: 'write', input: { n: 2 } },
    ]])
    const run = generateText({ model, tools: reinTools({ tools: broken }), stopWhen: stepCountIs(3), prompt: 'go' })
    await bodies.hasStarted('w2')
    bodies.release('w2')
    const result = await run
    expect(result.steps[0].content.filter((part) => part.type === 'tool-error').map((part) => part.toolCallId)).toEqual(['w1'])
    expect(toolOutputs(model.doGenerateCalls[1].prompt)).toEqual({ w1: 'the pipeline broke', w2: 'done w2' })
  })
})
