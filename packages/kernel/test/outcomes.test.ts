import type { Context } from 'cordis'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  ABORTED, ABORTED_BEFORE_DISPATCH, DEPENDENCY_FAILED, INVALID_ARGS, INVALID_PLAN, INVALID_TOOL_OUTPUT,
  Messages, PIPELINE_FAILED, RENDER_FAILED, TOOL_BLOCKED, TOOL_DENIED, TOOL_FAILED, TOOL_NOT_STARTED,
  TOOL_OUTCOME_UNKNOWN, TOOL_TIMEOUT, UNKNOWN_TOOL, defineTool, failure, type ToolExecutionResult,
} from '../src/index.js'
import { call, code, echoTool, firstText, makeKernel, plug } from './helpers.js'

// One test per row of DESIGN.md §2.1: the code, the exact text the model sees, and whether
// tools/post-execute ran for it.
describe('the outcome table', () => {
  let ctx: Context
  let postSaw: string[]
  beforeEach(async () => {
    ctx = await makeKernel()
    postSaw = []
    await plug(ctx, 'post-spy', (ctx) => {
      ctx.on('tools/post-execute', async (_exec, result, next) => {
        postSaw.push(code(result))
        return next()
      })
    })
    ctx.tools.register(echoTool())
  })

  const expectRow = (result: ToolExecutionResult, rowCode: string, text: string, postRuns: boolean) => {
    expect(code(result)).toBe(rowCode)
    expect(firstText(result)).toBe(text)
    expect(postSaw).toEqual(postRuns ? [rowCode] : [])
  }

  it('caller aborted before dispatch: ABORTED_BEFORE_DISPATCH, post-execute does not run', async () => {
    const controller = new AbortController()
    controller.abort()
    const result = await ctx.tools.execute(call({ text: 'a' }), { signal: controller.signal })
    expectRow(result, ABORTED_BEFORE_DISPATCH, 'Error: tool call aborted before dispatch', false)
  })

  it('aborted after the body started turns a success into ABORTED, and post-execute runs', async () => {
    const controller = new AbortController()
    ctx.tools.register(defineTool({
      name: 'slow', description: 'succeeds after the caller aborted', parameters: { type: 'object' },
      execute: async () => { controller.abort(); return 'done anyway' },
    }))
    const result = await ctx.tools.execute(call({}, 'slow'), { signal: controller.signal })
    expectRow(result, ABORTED, 'Error: tool call aborted', true)
  })

  it('an abort does not replace a failure of the body', async () => {
    const controller = new AbortController()
    ctx.tools.register(defineTool({
      name: 'breaks', description: 'fails after the caller aborted', parameters: { type: 'object' },
      execute: async () => { controller.abort(); throw new Error('disk full') },
    }))
    const result = await ctx.tools.execute(call({}, 'breaks'), { signal: controller.signal })
    expectRow(result, TOOL_FAILED, 'Error: disk full', true)
  })

  it('a body that throws the abort itself is ABORTED', async () => {
    const controller = new AbortController()
    ctx.tools.register(defineTool({
      name: 'waits', description: 'waits for its signal', parameters: { type: 'object' },
      execute: (_args, exec) => new Promise((_resolve, reject) => {
        exec.signal.addEventListener('abort', () => reject(exec.signal.reason))
        controller.abort()
      }),
    }))
    const result = await ctx.tools.execute(call({}, 'waits'), { signal: controller.signal })
    expectRow(result, ABORTED, 'Error: tool call aborted', true)
  })

  it('unknown tool: UNKNOWN_TOOL naming the tools that exist', async () => {
    const result = await ctx.tools.execute(call({}, 'nope'))
    expectRow(result, UNKNOWN_TOOL, 'Error: unknown tool "nope". Available tools: echo', true)
  })

  it('arguments that are not JSON: INVALID_ARGS', async () => {
    const result = await ctx.tools.execute(call('{"text": '))
    expectRow(result, INVALID_ARGS, 'Error: invalid arguments for "echo": arguments are not valid JSON', true)
  })

  it('arguments that fail the schema: INVALID_ARGS with the rendered ajv lines', async () => {
    ctx.tools.register(defineTool({
      name: 'read', description: 'r', parameters: {
        type: 'object', required: ['path'],
        properties: { path: { type: 'string' }, limit: { type: 'integer' } },
      },
      execute: () => 'x',
    }))
    const result = await ctx.tools.execute(call({ limit: 1.5 }, 'read'))
    expectRow(result, INVALID_ARGS,
      'Error: invalid arguments for "read": missing required property "path"; /limit: must be integer', true)
  })

  it('denied by pre-execute: TOOL_DENIED with the reason', async () => {
    await plug(ctx, 'denier', (ctx) => {
      ctx.on('tools/pre-execute', async () => ({ kind: 'deny', reason: 'echo is off today' }))
    })
    const result = await ctx.tools.execute(call({ text: 'a' }))
    expectRow(result, TOOL_DENIED, 'Error: echo is off today', true)
  })

  it('denied by a guard: TOOL_DENIED with the reason', async () => {
    await plug(ctx, 'guarded', (ctx) => { ctx.tools.guard(() => 'guards say no') })
    const result = await ctx.tools.execute(call({ text: 'a' }))
    expectRow(result, TOOL_DENIED, 'Error: guards say no', true)
  })

  it('body threw: the error code when it has one, else TOOL_FAILED', async () => {
    ctx.tools.register(defineTool({
      name: 'coded', description: 'c', parameters: { type: 'object' },
      execute: () => { throw Object.assign(new Error('connection reset'), { code: 'ECONNRESET' }) },
    }))
    ctx.tools.register(defineTool({
      name: 'plain', description: 'p', parameters: { type: 'object' },
      execute: () => { throw new Error('no such file') },
    }))
    expectRow(await ctx.tools.execute(call({}, 'coded')), 'ECONNRESET', 'Error: connection reset', true)
    postSaw = []
    expectRow(await ctx.tools.execute(call({}, 'plain')), TOOL_FAILED, 'Error: no such file', true)
  })

  it('value fails output.schema: INVALID_TOOL_OUTPUT', async () => {
    ctx.tools.register(echoTool({ name: 'liar', execute: () => 42 }))
    const result = await ctx.tools.execute(call({ text: 'a' }, 'liar'))
    expectRow(result, INVALID_TOOL_OUTPUT,
      'Error: tool "liar" returned a value that does not fit its output schema: (root): must be string', true)
  })

  it('value is not lossless JSON: INVALID_TOOL_OUTPUT', async () => {
    ctx.tools.register(defineTool({
      name: 'dated', description: 'd', parameters: { type: 'object' }, execute: () => ({ at: new Date(0) }),
    }))
    const result = await ctx.tools.execute(call({}, 'dated'))
    expectRow(result, INVALID_TOOL_OUTPUT,
      'Error: tool "dated" returned a value that is not lossless JSON (/at: a Date is not plain JSON)', true)
  })

  it('render threw: RENDER_FAILED', async () => {
    ctx.tools.register(echoTool({ name: 'ugly', output: { render: () => { throw new Error('bad template') } } }))
    const result = await ctx.tools.execute(call({ text: 'a' }, 'ugly'))
    expectRow(result, RENDER_FAILED, 'Error: rendering the result of "ugly" failed: bad template', true)
  })

  it('the timeout plugin\'s deadline: TOOL_TIMEOUT, post-execute runs', async () => {
    await plug(ctx, 'deadline', (ctx) => {
      ctx.on('tools/execute', async () => failure(TOOL_TIMEOUT, Messages.timedOut(250)))
    })
    const result = await ctx.tools.execute(call({ text: 'a' }))
    expectRow(result, TOOL_TIMEOUT, 'Error: tool call timed out after 250ms', true)
  })

  it('post-execute blocked: TOOL_BLOCKED with the feedback', async () => {
    await plug(ctx, 'blocker', (ctx) => {
      ctx.on('tools/post-execute', async () => ({ kind: 'block', feedback: 'output contains a secret' }))
    })
    const result = await ctx.tools.execute(call({ text: 'a' }))
    expect(code(result)).toBe(TOOL_BLOCKED)
    expect(firstText(result)).toBe('Error: output contains a secret')
  })

  it.each(['tools/pre-execute', 'tools/execute', 'tools/post-execute'] as const)(
    'a plugin handler that throws in %s: PIPELINE_FAILED naming plugin and stage', async (stage) => {
      await plug(ctx, 'broken', (ctx) => {
        ctx.on(stage as 'tools/execute', async () => { throw new Error('oops') })
      })
      const result = await ctx.tools.execute(call({ text: 'a' }))
      expect(code(result)).toBe(PIPELINE_FAILED)
      expect(result.isError && result.error.info?.name).toBe(stage)
      expect(firstText(result)).toBe(`Error: plugin "broken" failed in ${stage}: oops`)
      // post-execute never runs after a stage failure (the spy is outside, so it ran only if the stage is later)
      expect(postSaw).toEqual(stage === 'tools/post-execute' ? [code({ isError: false } as ToolExecutionResult)] : [])
    })

  it('a guard that throws: PIPELINE_FAILED, post-execute does not run', async () => {
    await plug(ctx, 'shaky', (ctx) => { ctx.tools.guard(() => { throw new Error('rules file unreadable') }) })
    const result = await ctx.tools.execute(call({ text: 'a' }))
    expectRow(result, PIPELINE_FAILED, 'Error: guard of plugin "shaky" failed: rules file unreadable', false)
  })

  it('settled by the scheduler: DEPENDENCY_FAILED and INVALID_PLAN run post-execute', async () => {
    const dep = await ctx.tools.settle(call({ text: 'a' }), DEPENDENCY_FAILED, Messages.dependencyFailed('call_0', 'boom'))
    expectRow(dep, DEPENDENCY_FAILED, 'Error: depends on call_0, which failed: boom', true)
    postSaw = []
    const plan = await ctx.tools.settle(call({ text: 'a' }), INVALID_PLAN, 'reference cycle: call_1 -> call_2 -> call_1')
    expectRow(plan, INVALID_PLAN, 'Error: reference cycle: call_1 -> call_2 -> call_1', true)
  })

  it('settled on resume: TOOL_NOT_STARTED and TOOL_OUTCOME_UNKNOWN skip post-execute', async () => {
    const notStarted = await ctx.tools.settle(call({ text: 'a' }), TOOL_NOT_STARTED, Messages.notStarted)
    expectRow(notStarted, TOOL_NOT_STARTED, `Error: ${Messages.notStarted}`, false)
    const unknown = await ctx.tools.settle(call({ text: 'a' }), TOOL_OUTCOME_UNKNOWN, Messages.outcomeUnknown)
    expect(firstText(unknown)).toBe('Error: tool call was interrupted and left no result; it may or may not have run; check before retrying')
    expect(postSaw).toEqual([])
  })

  it('a success: value, content, no error', async () => {
    const result = await ctx.tools.execute(call({ text: 'hello' }))
    expect(result).toEqual({ isError: false, value: 'hello', content: [{ type: 'text', text: 'hello' }] })
    expect(postSaw).toEqual(['OK'])
  })
})
