/** Each MCP session is its own rein session: an "allow for the session" answer covers later calls in it, and no other. */
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { firstText, served, type Served } from './serve-helpers.js'

let s: Served
beforeAll(async () => { s = await served({ allowSession: true }) }, 30_000)
afterAll(() => s?.close(), 15_000)

/** A client whose person answers `answer` and counts the asks. */
async function person(answer: string) {
  const client = await s.client({ elicitation: { form: {} } })
  const asked: string[] = []
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message)
    return { action: 'accept', content: { answer } }
  })
  return { client, asked }
}

describe('allow for the session under rein mcp serve', () => {
  it('covers the later calls of its own MCP session and none of another', async () => {
    const a = await person('allow-session')
    expect(firstText(await a.client.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } }))).toBe('The sum of 1 and 2 is 3.')
    expect(firstText(await a.client.callTool({ name: 'everything__get-sum', arguments: { a: 2, b: 2 } }))).toBe('The sum of 2 and 2 is 4.')
    expect(a.asked).toHaveLength(1)
    const b = await person('deny')
    expect(firstText(await b.client.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } })))
      .toBe('Error: "everything__get-sum" was denied at approval (sums need a person)')
    expect(b.asked).toHaveLength(1)
  })
})
