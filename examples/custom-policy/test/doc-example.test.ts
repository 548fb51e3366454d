import { readFileSync } from 'node:fs'
import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import * as kernel from '@rein/kernel'
import { defineTool, type ToolExecutionResult } from '@rein/kernel'
import { withClock } from './doc-example.js'

const code = (result: ToolExecutionResult) => result.isError ? result.error.info?.code : 'OK'

describe("docs/writing-a-plugin.md's first example", () => {
  it('is this folder\'s doc-example.ts, which tsc -b type-checks', () => {
    const doc = readFileSync(new URL('../../../docs/writing-a-plugin.md', import.meta.url), 'utf8')
    const block = /## A whole plugin[\s\S]*?```ts\n([\s\S]*?)```/.exec(doc)?.[1]
    const file = readFileSync(new URL('./doc-example.ts', import.meta.url), 'utf8')
    expect(block).toBeDefined()
    expect(file.endsWith(block!)).toBe(true)
  })

  it('denies write_file outside working hours and hands every other call on, without async', async () => {
    const ctx = new Context()
    ctx.plugin(kernel)
    await ctx.start()
    let hour = 20
    ctx.plugin(withClock(() => new Date(2026, 0, 1, hour)), { from: 9, to: 18 })
    await ctx.start()
    ctx.tools.register(defineTool({ name: 'write_file', description: 'w', parameters: { type: 'object' }, execute: () => 'written' }))
    const call = { id: 'c', name: 'write_file', arguments: '{}' }
    const denied = await ctx.tools.execute(call)
    expect(code(denied)).toBe('TOOL_DENIED')
    expect(denied.content[0]).toEqual({ type: 'text', text: 'Error: writes are allowed from 9:00 to 18:00' })
    hour = 10
    expect(code(await ctx.tools.execute(call))).toBe('OK')
    await ctx.stop()
  })
})
