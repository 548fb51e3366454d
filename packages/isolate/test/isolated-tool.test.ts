import { threadId } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { TOOL_FAILED, type ToolExecutionResult } from '@rein/kernel'
import { isolatedTool, type IsolatedTool } from '../src/index.js'
import { FIXTURE, firstProgress, fixtureTool, harness, outcome } from './helpers.js'

const tools: IsolatedTool[] = []
const make = (...args: Parameters<typeof fixtureTool>) => {
  const tool = fixtureTool(...args)
  tools.push(tool)
  return tool
}
afterEach(async () => { await Promise.all(tools.splice(0).map((tool) => tool.dispose())) })

async function call(tool: IsolatedTool, args: Record<string, unknown> = {}, onProgress?: (info: unknown) => void) {
  const ctx = await harness()
  ctx.tools.register(tool)
  return ctx.tools.execute({ id: 'c1', name: tool.name, arguments: args }, { onProgress })
}

const errorOf = (result: ToolExecutionResult) => (result.isError ? result.error : undefined)

describe('isolatedTool', () => {
  it('returns the value of the module export through the whole pipeline, computed in another thread', async () => {
    const result = await call(make('echo', 'default'), { text: 'hi' })
    if (result.isError) throw new Error(`unexpected failure: ${result.error.message}`)
    const value = result.value as { echoed: string, threadId: number }
    expect(value.echoed).toBe('hi')
    expect(value.threadId).not.toBe(threadId)
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(value) }])
  })

  it('passes progress reports from the worker to exec.progress', async () => {
    const reports: unknown[] = []
    const result = await call(make('report', 'report'), {}, (info) => reports.push(info))
    expect(outcome(result)).toEqual(['OK'])
    expect(reports).toEqual([{ message: 'half way', progress: 1, total: 2 }])
  })

  it('keeps the message and code of an error thrown in the worker', async () => {
    const result = await call(make('fail', 'fail'))
    expect(errorOf(result)).toEqual({ message: 'disk on fire', info: { code: 'E_FIRE' } })
    expect(result.content[0]).toEqual({ type: 'text', text: 'Error: disk on fire' })
  })

  it('turns a throw without a code into TOOL_FAILED and keeps its name', async () => {
    const result = await call(make('fail_range', 'failRange'))
    expect(errorOf(result)).toEqual({ message: 'limit too big', info: { code: TOOL_FAILED, name: 'RangeError' } })
  })

  it('fails the call when the export does not exist', async () => {
    const result = await call(make('missing', 'nope'))
    expect(outcome(result)).toEqual([TOOL_FAILED, 'TypeError'])
    expect(errorOf(result)?.message).toContain('has no function export "nope"')
  })

  it('fails the call, not the process, when the value cannot be cloned', async () => {
    const result = await call(make('uncloneable', 'uncloneable'))
    expect(result.isError).toBe(true)
    expect(errorOf(result)?.message).toMatch(/could not be cloned/)
  })

  it('calls the execute of an export that is a tool definition, with progress and a signal that never aborts', async () => {
    const reports: unknown[] = []
    const result = await call(make('doubler', 'definition'), { n: 21 }, (info) => reports.push(info))
    if (result.isError) throw new Error(`unexpected failure: ${result.error.message}`)
    expect(result.value).toMatchObject({ doubled: 42, signalAborted: false })
    expect((result.value as { threadId: number }).threadId).not.toBe(threadId)
    expect(reports).toEqual([{ message: 'doubling' }])
  })

  it('starts no thread before the first call', () => {
    expect(make('idle', 'whoami').threads()).toBe(0)
  })

  it('rejects a relative module path when the tool is declared', () => {
    expect(() => isolatedTool({ name: 'rel', description: 'd', parameters: { type: 'object' }, module: './tools.mjs' }))
      .toThrow(/module must be a file: URL or an absolute path, got "\.\/tools\.mjs"/)
  })

  it('accepts an absolute path as well as a file: URL', async () => {
    const tool = isolatedTool({ name: 'path', description: 'd', parameters: { type: 'object' }, module: FIXTURE.pathname, export: 'whoami' })
    tools.push(tool)
    expect(outcome(await call(tool))).toEqual(['OK'])
  })
})
