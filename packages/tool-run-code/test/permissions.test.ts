import { afterEach, describe, expect, it } from 'vitest'
import * as guard from '@rein/plugin-permission-guard'
import type { ToolExecutionResult } from '@rein/kernel'
import { addTool, harness, outcome, removeTool, run } from './helpers.js'

const stops: Array<() => Promise<void>> = []
afterEach(async () => { await Promise.all(stops.splice(0).map((stop) => stop())) })

async function started(options: Parameters<typeof harness>[0]) {
  const made = await harness(options)
  stops.push(() => made.ctx.stop())
  return made.ctx
}

const denyRemove: [any, any] = [guard, { rules: [{ tool: 'remove', action: 'deny', reason: 'removing files is not allowed here' }] }]

describe('sub-calls and policy', () => {
  it('throws a denied call into the code as an error whose message is the result text', async () => {
    const ctx = await started({ plugins: [denyRemove], tools: [removeTool] })
    const result = await run(ctx, `
      try {
        await tools.remove({ path: 'a.txt' })
        return 'not denied'
      } catch (error) {
        return { name: error.name, message: error.message, code: error.code, tool: error.tool, isError: error instanceof Error }
      }`)
    const [code, value] = outcome(result)
    expect(code).toBe('OK')
    expect(value).toMatchObject({ name: 'ToolError', code: 'TOOL_DENIED', tool: 'remove', isError: true })
    expect((value as { message: string }).message).toMatch(/^Error: .*removing files is not allowed here/)
  })

  it('fails the run with the reason when the code does not catch the denial', async () => {
    const ctx = await started({ plugins: [denyRemove], tools: [removeTool] })
    const [code, text] = outcome(await run(ctx, `await tools.remove({ path: 'a.txt' })\nreturn 'not denied'`))
    expect(code).toBe('CODE_FAILED')
    expect(text).toMatch(/^Error: the code threw ToolError: Error: .*removing files is not allowed here/)
    expect(text).toContain('run_code.js:1')
  })

  it('shows the denied sub-call to every observer as a call of its own, with its parent', async () => {
    const ctx = await started({ plugins: [denyRemove], tools: [removeTool] })
    const results: Array<[string, string | undefined, ToolExecutionResult]> = []
    ctx.on('tools/result', (exec, result) => { results.push([exec.id, exec.parent, result]) })
    await run(ctx, `try { await tools.remove({ path: 'a.txt' }) } catch {}\nreturn 1`, { id: 'call_1' })
    expect(results.map(([id, parent, result]) => [id, parent, result.isError ? result.error.info?.code : 'OK']))
      .toEqual([['call_1.1', 'call_1', 'TOOL_DENIED'], ['call_1', undefined, 'OK']])
  })

  it('lets a sub-call be denied while its siblings go on', async () => {
    const ctx = await started({ plugins: [denyRemove], tools: [removeTool, addTool] })
    const result = await run(ctx, `
      const settled = await Promise.allSettled([tools.add({ a: 1, b: 2 }), tools.remove({ path: 'x' })])
      return settled.map((s) => s.status === 'fulfilled' ? s.value : s.reason.code)`)
    expect(outcome(result)).toEqual(['OK', [3, 'TOOL_DENIED']])
  })

  it('cannot call run_code itself by default', async () => {
    const ctx = await started({ tools: [addTool] })
    const result = await run(ctx, `try { await tools.run_code({ code: 'return 1' }) } catch (error) { return [error.code, error.message] }`)
    expect(outcome(result)).toEqual(['OK', ['NOT_CALLABLE', 'tools.run_code is not a tool run_code can call; callable tools: add']])
  })

  it('calls only the allow-listed tools when `tools` is set', async () => {
    const ctx = await started({ config: { tools: ['add'] }, tools: [addTool, removeTool] })
    const result = await run(ctx, `
      const sum = await tools.add({ a: 2, b: 3 })
      try { await tools.remove({ path: 'x' }) } catch (error) { return [sum, error.code] }`)
    expect(outcome(result)).toEqual(['OK', [5, 'NOT_CALLABLE']])
  })

  it('passes a failing sub-call\'s code and text, e.g. arguments that fail the schema', async () => {
    const ctx = await started({ tools: [addTool] })
    const result = await run(ctx, `try { await tools.add({ a: 'one' }) } catch (error) { return [error.code, error.message] }`)
    const [, [code, message]] = outcome(result) as [string, [string, string]]
    expect(code).toBe('INVALID_ARGS')
    expect(message).toMatch(/^Error: .*"b"/)
  })

  it('refuses arguments that are not one JSON object, in the code', async () => {
    const ctx = await started({ tools: [addTool] })
    const result = await run(ctx, `
      const errors = []
      for (const args of [[1, 2], 'a', { a: 1, b: () => 2 }]) {
        try { await tools.add(args) } catch (error) { errors.push(error.message) }
      }
      return errors`)
    expect(outcome(result)).toEqual(['OK', [
      'tools.add(args): args must be one object of arguments, e.g. tools.add({ ... })',
      'tools.add(args): args must be one object of arguments, e.g. tools.add({ ... })',
      'tools.add arguments/b: function is not JSON',
    ]])
  })
})
