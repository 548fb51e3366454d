/**
 * What `rein mcp serve --http` keeps is bounded: the sessions open at once (`maxSessions`), how
 * long an idle one lives (`idleTimeoutMs`, short here), and the bytes a response may hold for a
 * client that does not read it (`maxPendingBytes`).
 */
import { connect } from 'node:net'
import { ABORTED } from '@rein/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { bare, INITIALIZE, raw, rawSession, type Bare } from './serve-helpers.js'

const servers: Bare[] = []
afterEach(async () => { await Promise.all(servers.splice(0).map((s) => s.close())) }, 15_000)
async function serve(options: Parameters<typeof bare>[0]) {
  const s = await bare(options)
  servers.push(s)
  return s
}

const call = (id: number, name: string, args: Record<string, unknown> = {}, progressToken?: number) =>
  ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(progressToken === undefined ? {} : { _meta: { progressToken } }) } })

describe('the number of sessions', () => {
  it('is capped: an initialize past maxSessions gets 503 with a JSON-RPC error, and one ended frees its place', async () => {
    const s = await serve({ maxSessions: 2 })
    const first = await rawSession(s.port)
    await rawSession(s.port)
    const refused = await raw(s.port, { body: INITIALIZE })
    expect(refused.status).toBe(503)
    expect(JSON.parse(refused.body)).toEqual({ jsonrpc: '2.0', id: null, error: {
      code: -32000, message: expect.stringMatching(/^this server has 2 MCP sessions open, as many as it keeps; end one \(DELETE\)/) } })
    expect((await raw(s.port, { method: 'DELETE', headers: first.headers })).status).toBe(200)
    await s.ended(first.id)
    expect((await raw(s.port, { body: INITIALIZE })).status).toBe(200)
  })
})

// Long enough for a test's next request of a session to come before its idle clock runs out.
const IDLE_MS = 400

describe('an idle session', () => {
  it('is closed after idleTimeoutMs without a request; its id then gets 404', async () => {
    const s = await serve({ idleTimeoutMs: IDLE_MS })
    const session = await rawSession(s.port)
    await s.ended(session.id)
    const after = await raw(s.port, { headers: session.headers, body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } })
    expect(after.status).toBe(404)
  })

  it('is not one while a call of it runs for a connected client; once the call has answered, it is', async () => {
    const s = await serve({ idleTimeoutMs: IDLE_MS })
    const busy = await rawSession(s.port)
    const answered = raw(s.port, { headers: busy.headers, body: call(2, 'hold') })
    await s.holding(1)
    // A session opened later and left idle is closed: the busy one, idle as long, would have been too.
    const later = await rawSession(s.port)
    await s.ended(later.id)
    expect(s.endedIds).toEqual([later.id])
    s.release()
    expect((await answered).body).toContain('"text":"released"')
    await s.ended(busy.id)
  })

  it('is closed when the client of its running call went away, and closing it aborts the call', async () => {
    const s = await serve({ idleTimeoutMs: IDLE_MS })
    const session = await rawSession(s.port)
    const socket = connect(s.port, '127.0.0.1')
    const body = JSON.stringify(call(2, 'hold'))
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `Mcp-Session-Id: ${session.id}\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
    await s.holding(1)
    socket.destroy()
    await s.ended(session.id)
    const aborted = await new Promise((resolve) => {
      const found = () => s.results.find((r) => r.exec.name === 'hold')
      if (found()) return resolve(found())
      s.ctx.on('tools/result', () => { if (found()) resolve(found()) })
    })
    expect(aborted).toMatchObject({ result: { isError: true, error: { info: { code: ABORTED } } } })
  })
})

describe('a response its client does not read', () => {
  it('holds at most maxPendingBytes of progress: later progress is dropped with a warning, and the result still comes', async () => {
    const s = await serve({ maxPendingBytes: 256 * 1024 })
    const session = await rawSession(s.port)
    const steps = 300
    // 300 steps of 128 KiB: far more than the sockets' buffers hold while nobody reads.
    const body = JSON.stringify(call(7, 'chatty', { count: steps, size: 128 * 1024 }, 1))
    const socket = connect(s.port, '127.0.0.1')
    socket.pause()
    const finished = new Promise<void>((resolve) => { s.ctx.on('tools/result', (exec) => { if (exec.name === 'chatty') resolve() }) })
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `Mcp-Session-Id: ${session.id}\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
    await finished
    // Now read it all: the progress sent before the client fell behind, then the result.
    const text = await new Promise<string>((resolve, reject) => {
      let received = ''
      socket.setEncoding('utf8')
      socket.on('data', (chunk: string) => {
        received += chunk
        if (received.slice(-chunk.length - 16).includes('"result":')) { socket.destroy(); resolve(received) }
      })
      socket.on('error', reject)
      socket.resume()
    })
    const progress = text.match(/"method":"notifications\/progress"/g) ?? []
    expect(progress.length).toBeGreaterThan(0)
    expect(progress.length).toBeLessThan(steps)
    expect(text).toContain('"result":{"content":[{"type":"text","text":"done"}]}')
    expect(s.warnings).toEqual([expect.stringMatching(/^the client of MCP session .* is not reading the response to request 7 \(over 262144 bytes wait\): its progress notifications are dropped until it does; the result will be sent$/)])
  }, 30_000)

  it('gets every progress step when its client reads', async () => {
    const s = await serve({ maxPendingBytes: 256 * 1024 })
    const session = await rawSession(s.port)
    const answer = await raw(s.port, { headers: session.headers, body: call(3, 'chatty', { count: 50, size: 1024 }, 1) })
    expect(answer.body.match(/"method":"notifications\/progress"/g)).toHaveLength(50)
    expect(answer.body).toContain('"text":"done"')
    expect(s.warnings).toEqual([])
  })
})
