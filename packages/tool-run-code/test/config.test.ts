import { describe, expect, it } from 'vitest'
import { withKernel } from '@rein/testing'
import * as runCode from '../src/index.js'
import { addTool, harness, readJsonTool, removeTool } from './helpers.js'

describe('the config', () => {
  it('has the defaults: 30 s, 64 MiB, 1000 calls, 10 at once, every tool but run_code', () => {
    expect(runCode.Config({})).toEqual({ maxRunMs: 30_000, memoryLimitBytes: 64 * 1024 * 1024, maxCalls: 1000, maxParallelCalls: 10 })
    expect(runCode.Config(undefined)).toEqual(runCode.Config({}))
    expect(runCode.Config({ tools: [] }).tools).toEqual([])
  })

  it.each([
    [{ maxRunMs: 0 }, '$.maxRunMs expected number >= 1 but got 0'],
    [{ memoryLimitBytes: 1000 }, '$.memoryLimitBytes expected number >= 1048576 but got 1000'],
    [{ maxStackBytes: 8 * 1024 * 1024 }, '$.maxStackBytes expected number <= 1048576 but got 8388608'],
    [{ maxParallelCalls: 0 }, '$.maxParallelCalls expected number >= 1 but got 0'],
    [{ tools: 'read_file' }, '$.tools must be a list of tool names, not "read_file"; list tools by their exact names, e.g. tools: [read_file, grep]'],
    [{ tools: ['add', 'read file'] }, '$.tools[1] "read file" is not a tool name (1-64 letters, digits, "_" or "-"); list tools by their exact names, e.g. tools: [read_file, grep]'],
  ])('rejects %j at load with a message naming the key', async (config, message) => {
    const { ctx, fork } = await withKernel(runCode, config)
    expect(fork.error?.message).toBe(message)
    expect(ctx.tools.get('run_code')).toBeUndefined()
    await ctx.stop()
  })

  it('sizes the sandbox thread\'s stack from maxStackBytes', () => {
    expect(runCode.threadStackMb(runCode.DEFAULT_STACK_BYTES)).toBe(28)
    expect(runCode.threadStackMb(runCode.MAX_STACK_BYTES)).toBe(52)
  })
})

describe('the description', () => {
  const descriptionOf = (ctx: Awaited<ReturnType<typeof harness>>['ctx']) =>
    ctx.tools.specs().find((spec) => spec.name === 'run_code')!.description

  it('lists every callable tool with its first line, its arguments\' schema and its result\'s schema', async () => {
    const { ctx } = await harness({ tools: [readJsonTool('/tmp'), addTool] })
    const description = descriptionOf(ctx)
    expect(description).toContain('`await tools.<name>(args)`')
    expect(description).toContain('Limits per run: 30000 ms, 64 MiB of memory,\n1000 tool calls.')
    expect(description.split('Callable tools')[1].split('\n').slice(1)).toEqual([
      '- tools.read_json(args): Read a JSON file of the test folder.',
      '  args: {"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}',
      '  returns: {"type":"object"}',
      '- tools.add(args): Add two numbers.',
      '  args: {"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}',
      '  returns: {"type":"number"}',
    ])
    expect(description).not.toContain('tools.run_code')
    await ctx.stop()
  })

  it('follows the registry: a tool registered later appears, a removed one goes', async () => {
    const { ctx } = await harness({ tools: [addTool] })
    expect(descriptionOf(ctx)).not.toContain('tools.remove(')
    const off = ctx.tools.register(removeTool)
    expect(descriptionOf(ctx)).toContain('tools.remove(')
    off()
    expect(descriptionOf(ctx)).not.toContain('tools.remove(')
    await ctx.stop()
  })

  it('lists only the allow-listed tools, and says when none is callable', async () => {
    const { ctx } = await harness({ config: { tools: ['add'] }, tools: [addTool, removeTool] })
    expect(descriptionOf(ctx)).toContain('tools.add(')
    expect(descriptionOf(ctx)).not.toContain('tools.remove(')
    await ctx.stop()
    const none = await harness({ config: { tools: [] }, tools: [addTool] })
    expect(descriptionOf(none.ctx)).toContain('No tools are callable from this sandbox.')
    await none.ctx.stop()
  })

  it('goes with the plugin', async () => {
    const { ctx, fork } = await harness({ tools: [addTool] })
    expect(ctx.tools.get('run_code')).toBeDefined()
    fork.dispose()
    expect(ctx.tools.get('run_code')).toBeUndefined()
    await ctx.stop()
  })
})
