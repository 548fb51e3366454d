import { describe, expect, expectTypeOf, it } from 'vitest'
import { CodedError, defineTool, type ToolError } from '../src/index.js'
import { call, firstText, makeKernel } from './helpers.js'

describe('CodedError', () => {
  it('thrown by a body, chooses the result code and gives its message as the text', async () => {
    const ctx = await makeKernel()
    ctx.tools.register(defineTool({
      name: 'picky', description: 'p', parameters: { type: 'object' },
      execute: () => { throw new CodedError('the folder is full', 'MY_CODE', { cause: new Error('ENOSPC') }) },
    }))
    const result = await ctx.tools.execute(call({}, 'picky'))
    expect(result.isError).toBe(true)
    expect(result.isError && result.error.info).toEqual({ code: 'MY_CODE', name: 'CodedError' })
    expect(firstText(result)).toBe('Error: the folder is full')
  })

  it('is an Error with its code and cause, apart from the plain ToolError record of a result', () => {
    const error = new CodedError('bad', 'BAD', { cause: 'why' })
    expect(error).toBeInstanceOf(Error)
    expect([error.name, error.message, error.code, error.cause]).toEqual(['CodedError', 'bad', 'BAD', 'why'])
    expectTypeOf<{ message: string }>().toExtend<ToolError>()
  })
})
