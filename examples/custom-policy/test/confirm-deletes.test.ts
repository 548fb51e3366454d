import { defineTool, TOOL_DENIED } from '@rein/kernel'
import { withKernel } from '@rein/testing'
import { describe, expect, it } from 'vitest'
import * as confirmDeletes from '../src/confirm-deletes.js'

const deleteNote = defineTool({
  name: 'delete_note', description: 'Deletes a note.',
  parameters: { type: 'object', properties: { id: { type: 'string' } } },
  execute: (args: { id: string }) => `deleted ${args.id}`,
})

describe('confirm-deletes policy', () => {
  it('asks before a delete; the approval service decides', async () => {
    const { ctx, asked } = await withKernel(confirmDeletes, {}, { approve: 'allow-once' })
    ctx.tools.register(deleteNote)
    expect(await ctx.tools.execute({ id: 'c1', name: 'delete_note', arguments: { id: 'n1' } })).toMatchObject({ isError: false, value: 'deleted n1' })
    expect(asked.map((request) => [request.exec.name, request.reason])).toEqual([['delete_note', 'delete_note cannot be undone']])
    await ctx.stop()
  })

  it('is refused when the answer is no, or when nobody can answer', async () => {
    for (const options of [{ approve: 'deny' as const }, {}]) {
      const { ctx } = await withKernel(confirmDeletes, {}, options)
      ctx.tools.register(deleteNote)
      const result = await ctx.tools.execute({ id: 'c1', name: 'delete_note', arguments: { id: 'n1' } })
      expect(result.isError && result.error.info?.code).toBe(TOOL_DENIED)
      await ctx.stop()
    }
  })
})
