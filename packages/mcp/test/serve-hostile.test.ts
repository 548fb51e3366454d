import { CallToolResultSchema, ErrorCode } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { firstText, served, type Served } from './serve-helpers.js'

// A server that lets a session run at most 4 calls at once.
let s: Served
beforeAll(async () => { s = await served({ maxCallsInFlight: 4 }) }, 30_000)
afterAll(() => s?.close(), 15_000)

async function stillServes(client: Awaited<ReturnType<Served['client']>>) {
  const result = await client.callTool({ name: 'everything__echo', arguments: { message: 'still here' } })
  expect(firstText(result)).toBe('Echo: still here')
}

describe('rein mcp serve, hostile input', () => {
  it('answers arguments that are not an object with a protocol error, and keeps serving', async () => {
    const client = await s.client()
    for (const args of ['Oslo', 42, ['a'], null]) {
      await expect(client.request({ method: 'tools/call', params: { name: 'weather', arguments: args as never } }, CallToolResultSchema))
        .rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('arguments') })
    }
    await stillServes(client)
  })

  it('refuses unknown tools and bad arguments with rein\'s text', async () => {
    const client = await s.client()
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} })
    expect(unknown.isError).toBe(true)
    expect(firstText(unknown)).toMatch(/^Error: unknown tool "no_such_tool"/)
    const bad = await client.callTool({ name: 'weather', arguments: { city: 7 } })
    expect(bad.isError).toBe(true)
    expect(firstText(bad)).toContain('/city: must be string')
    const proto = await client.request({ method: 'tools/call', params: { name: 'weather', arguments: JSON.parse('{"city":"x","__proto__":{"a":1}}') } }, CallToolResultSchema)
    expect(proto.isError).toBe(true)
    expect(firstText(proto)).toMatch(/^Error: .*__proto__/)
    await stillServes(client)
  })

  it('refuses the calls of a flood past the session\'s limit, runs the rest, and keeps serving', async () => {
    const client = await s.client()
    const flood = Array.from({ length: 20 }, () =>
      client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 0.3, steps: 1 } }))
    const results = await Promise.all(flood)
    const refused = results.filter((r) => firstText(r).startsWith('Error: too many calls in flight in this session (4)'))
    const ran = results.filter((r) => !r.isError)
    expect(refused.length + ran.length).toBe(20)
    expect(ran.length).toBeGreaterThanOrEqual(4)
    expect(refused.length).toBeGreaterThan(0)
    // Another session has its own limit, and this one is free again.
    await stillServes(await s.client())
    await stillServes(client)
  })

  it('ignores a cancellation of a call that finished, or of no call at all', async () => {
    const client = await s.client()
    await stillServes(client)
    await client.notification({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'too late' } })
    await client.notification({ method: 'notifications/cancelled', params: { requestId: 987654, reason: 'never sent' } })
    await stillServes(client)
  })

  it('answers HTTP requests outside a session with a clear status, and keeps serving', async () => {
    const get = await fetch(s.http.url)
    expect(get.status).toBe(400)
    expect(((await get.json()) as { error: { message: string } }).error.message).toMatch(/start with an initialize request/)
    const unknown = await fetch(s.http.url, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'nope' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
    expect(unknown.status).toBe(404)
    const garbage = await fetch(s.http.url, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{not json' })
    expect(garbage.status).toBe(400)
    const notInit = await fetch(s.http.url, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
    expect(notInit.status).toBe(400)
    const elsewhere = await fetch(new URL('/other', s.http.url))
    expect(elsewhere.status).toBe(404)
    await stillServes(await s.client())
  })
})
