import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, TOOL_DENIED } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import * as workingHours from '../src/index.js'

async function harness(hour: number, config: Partial<workingHours.Config> = {}) {
  const ctx = new Context()
  ctx.plugin(kernel)
  ctx.plugin(workingHours.withClock(() => new Date(2026, 10, 30, hour)), config as workingHours.Config)
  await ctx.start()
  ctx.tools.register(defineTool({
    name: 'write_file', description: 'w', parameters: { type: 'object' }, execute: () => 'written',
  }))
  ctx.tools.register(defineTool({
    name: 'read_file', description: 'r', parameters: { type: 'object' }, execute: () => 'read',
  }))
  return ctx
}

describe('working-hours policy', () => {
  it('allows writes during working hours', async () => {
    const ctx = await harness(10)
    expect(await ctx.tools.execute({ id: '1', name: 'write_file', arguments: {} })).toMatchObject({ isError: false })
  })

  it('denies writes after hours, with a reason the model can act on', async () => {
    const ctx = await harness(20)
    const result = await ctx.tools.execute({ id: '1', name: 'write_file', arguments: {} })
    expect(result.isError && result.error.info?.code).toBe(TOOL_DENIED)
    expect(result.content[0]).toEqual({ type: 'text', text: 'Error: write_file is only allowed from 9:00 to 18:00' })
  })

  it('leaves other tools alone and honours its config', async () => {
    const ctx = await harness(20, { from: 0, to: 24 })
    expect(await ctx.tools.execute({ id: '1', name: 'write_file', arguments: {} })).toMatchObject({ isError: false })
    const night = await harness(3)
    expect(await night.tools.execute({ id: '2', name: 'read_file', arguments: {} })).toMatchObject({ isError: false })
  })

  it('rejects a bad config, naming the key', () => {
    expect(() => workingHours.Config({ from: 'nine' } as never)).toThrow(/from/)
    expect(workingHours.Config({} as workingHours.Config)).toEqual({ tools: ['write_file', 'edit_file', 'bash'], from: 9, to: 18 })
  })
})
