import { defineTool, type ToolExec } from '@rein/kernel'
import { createHarness } from '@rein/loader'
import * as permissionGuard from '@rein/plugin-permission-guard'
import * as timeoutPolicy from '@rein/plugin-timeout-policy'
import { generateText, stepCountIs, streamText } from 'ai'
import type { Context } from 'cordis'
import { afterEach, describe, expect, it } from 'vitest'
import { ReinToolError, reinTools } from '../src/index.js'
import { scriptedModel, toolOutputs } from './model.js'

/** Tools for the tests: `add`, `wait` (ends on its signal, or never), and what each call saw. */
function testTools(seen: ToolExec[], started?: () => void, reasons: unknown[] = []) {
  return {
    name: 'test-tools',
    inject: ['tools'],
    apply(ctx: Context) {
      ctx.tools.register(defineTool({
        name: 'add',
        description: 'Adds two numbers.',
        parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
        execute: (args: { a: number, b: number }, exec) => { seen.push(exec); return args.a + args.b },
      }))
      ctx.tools.register(defineTool({
        name: 'wait',
        description: 'Waits until its call is aborted.',
        parameters: { type: 'object' },
        execute: (_args, exec) => new Promise((_resolve, reject) => {
          seen.push(exec)
          const signal = exec.signal
          signal.addEventListener('abort', () => { reasons.push(signal.reason); reject(signal.reason) }, { once: true })
          started?.()
        }),
      }))
      ctx.tools.register(defineTool({
        name: 'quote',
        description: 'Returns its text.',
        parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        execute: (args: { text: string }) => args.text,
      }))
      ctx.tools.register(defineTool({
        name: 'remove',
        description: 'Removes everything.',
        parameters: { type: 'object' },
        execute: () => { throw new Error('the body of a denied tool ran') },
      }))
    },
  }
}

const disposers: (() => Promise<void>)[] = []
afterEach(async () => { await Promise.all(disposers.splice(0).map((dispose) => dispose())) })

async function harnessWith(seen: ToolExec[], started?: () => void, reasons?: unknown[]) {
  const harness = await createHarness({
    plugins: [
      // Only `wait` has the short deadline under test; the calls that must succeed, and `wait`
      // ending on its signal, get room that a loaded machine cannot use up.
      [timeoutPolicy, { defaultMs: 60_000, graceMs: 10_000, tools: { wait: 50 } }],
      [permissionGuard, { rules: [{ tool: 'remove', action: 'deny', reason: 'removing is not allowed here' }] }],
    ],
    tools: [testTools(seen, started, reasons)],
  })
  disposers.push(() => harness.dispose())
  return harness
}

// Step 1: a call that works, a denied one, one that times out and one with bad arguments.
const STEPS = [[
  { id: 'c1', name: 'add', input: { a: 2, b: 3 } },
  { id: 'c2', name: 'remove', input: {} },
  { id: 'c3', name: 'wait', input: {} },
  { id: 'c4', name: 'add', input: { a: 'two' } },
], [{ id: 'c5', name: 'add', input: { a: 1, b: 1 } }]]

function expectRefusalsAndSuccess(outputs: Record<string, string>) {
  expect(outputs.c1).toBe('5')
  expect(outputs.c2).toBe('Error: removing is not allowed here')
  expect(outputs.c3).toBe('Error: tool call timed out after 50ms')
  expect(outputs.c4).toMatch(/^Error: .*\/a: must be number/s)
  expect(outputs.c4).toContain('missing required property "b"')
}

/** What the app sees of step 1 (`steps[0].content`): a result for the success, an error with rein's code for each refusal. */
function expectErrorParts(content: readonly { type: string, toolCallId?: string, output?: unknown, error?: unknown }[]) {
  const byId = new Map(content.filter((part) => part.type === 'tool-result' || part.type === 'tool-error').map((part) => [part.toolCallId, part]))
  expect(byId.get('c1')).toMatchObject({ type: 'tool-result', output: '5' })
  const codes: Record<string, string> = { c2: 'TOOL_DENIED', c3: 'TOOL_TIMEOUT', c4: 'INVALID_ARGS' }
  for (const [id, code] of Object.entries(codes)) {
    const part = byId.get(id)!
    expect(part.type).toBe('tool-error')
    expect(part.error).toBeInstanceOf(ReinToolError)
    expect(part.error).toMatchObject({ code, result: { isError: true } })
  }
  expect(byId.get('c2')!.error).toMatchObject({ message: 'Error: removing is not allowed here', reason: 'removing is not allowed here' })
}

describe('reinTools with generateText', () => {
  it('runs each call through the plugins and shows the model the text rein would', async () => {
    const seen: ToolExec[] = []
    const harness = await harnessWith(seen)
    const model = scriptedModel(STEPS)
    const result = await generateText({ model, tools: reinTools(harness), stopWhen: stepCountIs(5), prompt: 'go' })
    expect(result.text).toBe('done')
    expect(result.steps).toHaveLength(3)
    expectRefusalsAndSuccess(toolOutputs(model.doGenerateCalls[1].prompt))
    expect(toolOutputs(model.doGenerateCalls[2].prompt).c5).toBe('2')
    expectErrorParts(result.steps[0].content)
    expect(result.steps[0].toolResults.map((part) => part.toolCallId)).toEqual(['c1'])
    // The call ids the pipeline saw are the model's.
    expect(seen.map((exec) => exec.id)).toEqual(['c1', 'c3', 'c5'])
  })

  it('keeps a success whose text starts with "Error: " a result', async () => {
    const harness = await harnessWith([])
    const model = scriptedModel([[{ id: 'q1', name: 'quote', input: { text: 'Error: a line of a log' } }]])
    const result = await generateText({ model, tools: reinTools(harness), stopWhen: stepCountIs(3), prompt: 'go' })
    expect(result.steps[0].content.filter((part) => part.type === 'tool-error')).toEqual([])
    expect(result.steps[0].toolResults).toEqual([expect.objectContaining({ toolCallId: 'q1', output: 'Error: a line of a log' })])
  })

  it('answers a call to a name the set does not hold with the AI SDK\'s error, and goes on', async () => {
    const harness = await harnessWith([])
    const tools = reinTools(harness)
    const model = scriptedModel([
      [{ id: 'k1', name: 'constructor', input: {} }, { id: 'k2', name: 'toString', input: {} }],
      [{ id: 'a1', name: 'add', input: { a: 1, b: 2 } }],
    ])
    const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: 'go' })
    expect(result.text).toBe('done')
    expect(result.steps).toHaveLength(3)
    expect(result.steps[0].content.filter((part) => part.type === 'tool-error').map((part) => part.toolCallId)).toEqual(['k1', 'k2'])
    expect(toolOutputs(model.doGenerateCalls[2].prompt).a1).toBe('3')
  })

  it('offers every tool, a denied one included, with its JSON Schema', async () => {
    const harness = await harnessWith([])
    const model = scriptedModel([])
    await generateText({ model, tools: reinTools(harness), prompt: 'go' })
    const offered = model.doGenerateCalls[0].tools ?? []
    expect(offered.map((tool) => tool.name).sort()).toEqual(['add', 'quote', 'remove', 'wait'])
    expect(offered.find((tool) => tool.name === 'add')).toMatchObject({
      type: 'function', description: 'Adds two numbers.', inputSchema: { required: ['a', 'b'] } })
  })

  it('passes the AI SDK call\'s abort signal to exec.signal', async () => {
    const seen: ToolExec[] = []
    const controller = new AbortController()
    const reasons: unknown[] = []
    const harness = await harnessWith(seen, () => controller.abort(new Error('user left')), reasons)
    const model = scriptedModel([[{ id: 'w1', name: 'wait', input: {} }]])
    const done = generateText({ model, tools: reinTools(harness), stopWhen: stepCountIs(3), prompt: 'go', abortSignal: controller.signal })
    await expect(done).rejects.toThrow('user left')
    expect(seen).toHaveLength(1)
    // The body's signal ended with the caller's reason, not the 50 ms deadline's.
    expect(reasons).toEqual([expect.objectContaining({ message: 'user left' })])
  })

  it('puts the calls in the session it is given, and offers only the tools named', async () => {
    const seen: ToolExec[] = []
    const harness = await harnessWith(seen)
    const model = scriptedModel([[{ id: 'a1', name: 'add', input: { a: 1, b: 2 } }]])
    const tools = reinTools(harness, { session: { id: 'chat-7' }, only: ['add'] })
    expect(Object.keys(tools)).toEqual(['add'])
    await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'go' })
    expect(seen.map((exec) => exec.session)).toEqual([{ id: 'chat-7' }])
  })

  it('accepts a cordis Context and refuses anything else with a clear error', async () => {
    const harness = await harnessWith([])
    expect(Object.keys(reinTools(harness.ctx)).sort()).toEqual(['add', 'quote', 'remove', 'wait'])
    expect(() => reinTools({} as never)).toThrow(/expected what createHarness\/loadHarness return/)
  })
})

describe('reinTools with streamText', () => {
  it('runs the same calls through the plugins, step after step', async () => {
    const harness = await harnessWith([])
    const model = scriptedModel(STEPS)
    const result = streamText({ model, tools: reinTools(harness), stopWhen: stepCountIs(5), prompt: 'go' })
    expect(await result.text).toBe('done')
    expect(await result.steps).toHaveLength(3)
    expectRefusalsAndSuccess(toolOutputs(model.doStreamCalls[1].prompt))
    expectErrorParts((await result.steps)[0].content)
  })

  it('passes the abort signal to a call in flight', async () => {
    const seen: ToolExec[] = []
    const controller = new AbortController()
    const reasons: unknown[] = []
    const harness = await harnessWith(seen, () => controller.abort(new Error('user left')), reasons)
    const model = scriptedModel([[{ id: 'w1', name: 'wait', input: {} }]])
    const result = streamText({ model, tools: reinTools(harness), stopWhen: stepCountIs(3), prompt: 'go', abortSignal: controller.signal })
    await result.consumeStream()
    expect(seen).toHaveLength(1)
    expect(reasons).toEqual([expect.objectContaining({ message: 'user left' })])
  })
})

describe('reinTools with a tool named like an Object member', () => {
  it('holds a tool named __proto__ as an ordinary entry and runs it', async () => {
    const harness = await createHarness({
      tools: [{
        name: 'proto-tools',
        inject: ['tools'],
        apply(ctx: Context) {
          ctx.tools.register(defineTool({ name: '__proto__', description: 'p', parameters: { type: 'object' }, execute: () => 'proto tool ran' }))
          ctx.tools.register(defineTool({ name: 'echo', description: 'e', parameters: { type: 'object' }, execute: () => 'echo ran' }))
        },
      }],
    })
    disposers.push(() => harness.dispose())
    const tools = reinTools(harness)
    expect(Object.keys(tools).sort()).toEqual(['__proto__', 'echo'])
    expect(Object.getPrototypeOf(tools)).toBeNull()
    expect('execute' in tools).toBe(false)
    const model = scriptedModel([[{ id: 'p1', name: '__proto__', input: {} }, { id: 'x1', name: 'execute', input: {} }]])
    const result = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'go' })
    expect((model.doGenerateCalls[0].tools ?? []).map((tool) => tool.name).sort()).toEqual(['__proto__', 'echo'])
    expect(result.steps[0].toolResults).toEqual([expect.objectContaining({ toolCallId: 'p1', output: 'proto tool ran' })])
    expect(result.steps[0].content.filter((part) => part.type === 'tool-error').map((part) => part.toolCallId)).toEqual(['x1'])
  })
})
