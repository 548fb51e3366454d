/**
 * `rein mcp serve` under `approvals: 'park'` (DESIGN.md §7.2, §7.4): an ask that the client
 * cannot answer is refused naming a request recorded in the MCP session's own JSONL store,
 * which `answerApproval` (what `rein approve` runs) answers while the session stays open; the
 * same call made again meets the answer once. Clients are the SDK's own `Client` over HTTP.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { answerApproval, jsonlSession, pendingApprovals } from '@rein/agent'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { firstText, served, type Served } from './serve-helpers.js'

let s: Served
let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-park-'))
  s = await served({ approvals: 'park', sessionStore: (id) => jsonlSession(join(dir, `${id}.jsonl`)) })
}, 30_000)
afterAll(async () => {
  await s?.close()
  await rm(dir, { recursive: true, force: true })
}, 15_000)

/** The request id and session file a parked refusal names. */
function named(text: string): { id: string, file: string } {
  const found = /recorded as (apr_[\w-]+) in session (\S+):/.exec(text)
  if (!found) throw new Error(`no request named in: ${text}`)
  return { id: found[1]!, file: found[2]! }
}

const SUM = { name: 'everything__get-sum', arguments: { a: 2, b: 3 } }

describe('rein mcp serve with approvals: park', () => {
  it('refuses an ask of a client without elicitation naming the pending request, which rein approve can answer; the call again then runs once', async () => {
    const client = await s.client()
    const refused = await client.callTool(SUM)
    expect(refused.isError).toBe(true)
    const text = firstText(refused)
    expect(text).toMatch(/^Error: "everything__get-sum" needs approval \(sums need a person\), and this MCP client cannot ask a person\. The request is recorded as apr_/)
    expect(text).toContain('rein approve apr_')
    const { id, file } = named(text)
    expect(file.startsWith(dir)).toBe(true)
    // The session stays open, and its store's lock is free: another store writes the answer.
    const store = jsonlSession(file)
    expect(await pendingApprovals(store)).toEqual([expect.objectContaining({ id, tool: 'everything__get-sum', arguments: { a: 2, b: 3 }, reason: 'sums need a person' })])
    await store.close?.()
    // Asked again before the answer: the same request, no second one.
    expect(named(firstText(await client.callTool(SUM))).id).toBe(id)
    await answerApproval(store, id, 'allow-once', { by: 'ana' })
    await store.close?.()
    expect(firstText(await client.callTool(SUM))).toBe('The sum of 2 and 3 is 5.')
    // allow-once: used up; the next such call asks again, under a new request.
    const again = named(firstText(await client.callTool(SUM)))
    expect(again.id).not.toBe(id)
    const check = jsonlSession(file)
    expect((await pendingApprovals(check)).map((p) => p.id)).toEqual([again.id])
    await check.close?.()
  })

  it('refuses the call again after a deny answer, saying it was denied', async () => {
    const client = await s.client()
    const { id, file } = named(firstText(await client.callTool({ name: 'everything__get-sum', arguments: { a: 7, b: 1 } })))
    const store = jsonlSession(file)
    await answerApproval(store, id, 'deny')
    await store.close?.()
    const denied = await client.callTool({ name: 'everything__get-sum', arguments: { a: 7, b: 1 } })
    expect(firstText(denied)).toBe('Error: "everything__get-sum" was denied at approval (sums need a person)')
  })

  it('does not apply an answer to other arguments, nor in another MCP session', async () => {
    const [a, b] = [await s.client(), await s.client()]
    const { id, file } = named(firstText(await a.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } })))
    const store = jsonlSession(file)
    await answerApproval(store, id, 'allow-session')
    await store.close?.()
    expect(named(firstText(await a.callTool({ name: 'everything__get-sum', arguments: { a: 9, b: 9 } }))).id).not.toBe(id)
    const elsewhere = named(firstText(await b.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } })))
    expect(elsewhere.file).not.toBe(file)
    expect(firstText(await a.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } }))).toBe('The sum of 1 and 2 is 3.')
  })

  it('asks a client that can be asked, parking nothing', async () => {
    const client = await s.client({ elicitation: { form: {} } })
    let asked = 0
    client.setRequestHandler(ElicitRequestSchema, () => { asked++; return { action: 'accept', content: { answer: 'allow-once' } } })
    expect(firstText(await client.callTool({ name: 'everything__get-sum', arguments: { a: 3, b: 3 } }))).toBe('The sum of 3 and 3 is 6.')
    expect(asked).toBe(1)
    const store = jsonlSession(join(dir, `${(client.transport as StreamableHTTPClientTransport).sessionId}.jsonl`))
    expect(await pendingApprovals(store)).toEqual([])
    await store.close?.()
  })

  it('refuses every call, saying why, while its store is held by another writer', async () => {
    const client = await s.client()
    const file = join(dir, `${(client.transport as StreamableHTTPClientTransport).sessionId}.jsonl`)
    const holder = jsonlSession(file)
    await holder.load()
    const refused = await client.callTool(SUM)
    await holder.close?.()
    expect(firstText(refused)).toMatch(/^Error: this MCP session's store .* cannot be read \(.*already open for writing.*\), so no call runs/)
    expect(named(firstText(await client.callTool(SUM))).file).toBe(file)
  })
})
