/**
 * `rein mcp serve` under `approvals: 'park'` (DESIGN.md §7.2, §7.4): an ask that the client
 * cannot answer is refused naming a request recorded in the MCP session's own JSONL store,
 * which `answerApproval` (what `rein approve` runs) answers while the session stays open; the
 * same call made again meets the answer once. Clients are the SDK's own `Client` over HTTP.
 */
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { answerApproval, jsonlSession, pendingApprovals } from '@rein/agent'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessionFiles } from '../src/serve/index.js'
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

/** The sessions with a file (or a lock) in `folder`, by id, sorted. */
async function sessionsIn(folder: string): Promise<string[]> {
  return [...new Set((await readdir(folder)).map((name) => name.replace(/\.jsonl.*$/, '')))].sort()
}

/** A server whose sessions keep their facts in files of `folder`, removed when each session ends; `ended(id)` resolves once that is done. */
async function servedInFiles(folder: string) {
  const files = sessionFiles(folder)
  const done = new Map<string, () => void>()
  const endings = new Map<string, Promise<void>>()
  const ending = (id: string) => {
    if (!endings.has(id)) endings.set(id, new Promise((resolve) => done.set(id, resolve)))
    return endings.get(id)!
  }
  const server = await served({
    approvals: 'park',
    sessionStore: files.sessionStore,
    sessionEnded: async (id) => {
      await files.sessionEnded(id)
      ending(id)
      done.get(id)!()
    },
  })
  return { server, ended: ending }
}

describe('the session files of rein mcp serve', () => {
  it('removes a session\'s file when its client ends the session, though it holds an answered request not yet used', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'mcp-files-'))
    const { server, ended } = await servedInFiles(folder)
    try {
      const client = await server.client()
      const { id, file } = named(firstText(await client.callTool(SUM)))
      const store = jsonlSession(file)
      await answerApproval(store, id, 'allow-once')
      await store.close?.()
      const other = await server.client()
      named(firstText(await other.callTool(SUM)))
      const transport = client.transport as StreamableHTTPClientTransport
      const session = transport.sessionId!
      expect(await sessionsIn(folder)).toEqual([session, (other.transport as StreamableHTTPClientTransport).sessionId].sort())
      await transport.terminateSession()
      await ended(session)
      expect(await sessionsIn(folder)).toEqual([(other.transport as StreamableHTTPClientTransport).sessionId])
    } finally {
      await server.close()
      await rm(folder, { recursive: true, force: true })
    }
  })

  it('removes the file of every session still open when the server stops', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'mcp-files-'))
    const { server } = await servedInFiles(folder)
    try {
      for (const client of [await server.client(), await server.client()]) named(firstText(await client.callTool(SUM)))
      expect(await sessionsIn(folder)).toHaveLength(2)
    } finally {
      await server.close()
    }
    expect(await readdir(folder)).toEqual([])
    await rm(folder, { recursive: true, force: true })
  })

  it('removes at start only the session files nothing wrote for the given time, and no other file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'mcp-files-'))
    const now = Date.now()
    const day = 86_400_000
    const touch = async (name: string, ageMs: number) => {
      await writeFile(join(folder, name), '')
      await utimes(join(folder, name), new Date(now - ageMs), new Date(now - ageMs))
    }
    const [old, fresh, locked, stdio] = [randomUUID(), randomUUID(), randomUUID(), `stdio-${randomUUID()}`]
    await touch(`${old}.jsonl`, 8 * day)
    await touch(`${old}.jsonl.lock`, 9 * day)
    await touch(`${stdio}.jsonl`, 8 * day)
    await touch(`${fresh}.jsonl`, 6 * day)
    await touch(`${locked}.jsonl`, 8 * day)
    await touch(`${locked}.jsonl.lock`, 1000)
    await touch('run.jsonl', 30 * day)
    await touch(`${old}.txt`, 30 * day)
    const files = sessionFiles(folder)
    expect(await files.removeStale(7 * day, now)).toEqual([`${old}.jsonl`, `${stdio}.jsonl`].sort())
    expect((await readdir(folder)).sort()).toEqual([`${fresh}.jsonl`, `${locked}.jsonl`, `${locked}.jsonl.lock`, `${old}.txt`, 'run.jsonl'].sort())
    expect(await sessionFiles(join(folder, 'none')).removeStale(day)).toEqual([])
    await mkdir(join(folder, 'empty'))
    expect(await sessionFiles(join(folder, 'empty')).removeStale(0)).toEqual([])
    await rm(folder, { recursive: true, force: true })
  })
})
