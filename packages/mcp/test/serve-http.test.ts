import { ElicitRequestSchema, type Progress } from '@modelcontextprotocol/sdk/types.js'
import { ABORTED, TOOL_TIMEOUT } from '@rein/kernel'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MCP_SERVER_UNAVAILABLE } from '../src/index.js'
import { gate } from './helpers.js'
import { firstText, served, type Served } from './serve-helpers.js'

let s: Served
beforeAll(async () => { s = await served() }, 30_000)
afterAll(() => s?.close(), 15_000)

const codeOf = (callNumber: string, session: string) => {
  const found = s.results.find((r) => r.exec.id === callNumber && r.exec.session?.id === session)
  return found?.result.isError ? found.result.error.info?.code : found ? 'OK' : undefined
}

describe('rein mcp serve over Streamable HTTP, the everything server behind it', () => {
  it('lists its own tools and the upstream ones, without the tool a deny covers whatever the arguments', async () => {
    const client = await s.client()
    const { tools } = await client.listTools()
    const names = tools.map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(['weather', 'steps', 'everything__echo', 'everything__get-sum', 'everything__trigger-long-running-operation']))
    expect(names).not.toContain('everything__get-env')
    expect(tools.find((tool) => tool.name === 'everything__echo')).toMatchObject({
      description: 'Echoes back the input string', inputSchema: { type: 'object', required: ['message'] } })
  })

  it('runs a call through the pipeline and answers with rein\'s content', async () => {
    const client = await s.client()
    const result = await client.callTool({ name: 'everything__echo', arguments: { message: 'hello' } })
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Echo: hello' }] })
    expect(result.isError).toBeFalsy()
  })

  it('maps an object value to structuredContent, and lists its output schema', async () => {
    const client = await s.client()
    const { tools } = await client.listTools()
    expect(tools.find((tool) => tool.name === 'weather')?.outputSchema).toMatchObject({ type: 'object', required: ['city', 'celsius'] })
    const own = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } })
    expect(own.structuredContent).toEqual({ city: 'Oslo', celsius: 21 })
    const upstream = await client.callTool({ name: 'everything__get-structured-content', arguments: { location: 'Chicago' } })
    expect(upstream.structuredContent).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 })
  })

  it('refuses what the policy denies with isError and the reason, and a hidden tool too', async () => {
    const client = await s.client()
    const denied = await client.callTool({ name: 'everything__echo', arguments: { message: 'rm -rf /' } })
    expect(denied.isError).toBe(true)
    expect(firstText(denied)).toBe('Error: no rm here')
    const hidden = await client.callTool({ name: 'everything__get-env', arguments: {} })
    expect(hidden.isError).toBe(true)
    expect(firstText(hidden)).toBe('Error: the environment stays private')
  })

  it('forwards progress to a client that asked for it', async () => {
    const client = await s.client()
    const seen: Progress[] = []
    const result = await client.callTool({ name: 'steps', arguments: {} }, undefined, { onprogress: (p) => seen.push(p) })
    expect(firstText(result)).toBe('done')
    expect(seen).toEqual([
      { progress: 1, total: 3, message: 'step 1' }, { progress: 2, total: 3, message: 'step 2' }, { progress: 3, total: 3, message: 'step 3' }])
    const upstream: Progress[] = []
    await client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: (p) => upstream.push(p) })
    // The last report races the result on the upstream leg; the ones before it all arrive.
    expect(upstream.slice(0, 2)).toEqual([{ progress: 1, total: 3 }, { progress: 2, total: 3 }].map((p) => expect.objectContaining(p)))
  })

  it('ends an upstream call at the timeout plugin\'s deadline', async () => {
    const client = await s.client()
    const result = await client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 30, steps: 300 } })
    expect(result.isError).toBe(true)
    expect(firstText(result)).toBe('Error: tool call timed out after 1500ms')
    expect(s.results.at(-1)?.result).toMatchObject({ error: { info: { code: TOOL_TIMEOUT } } })
  })

  it('aborts the call when the client cancels it (notifications/cancelled)', async () => {
    const client = await s.client()
    const controller = new AbortController()
    const first = gate()
    const pending = client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 30, steps: 300 } }, undefined, {
      signal: controller.signal, onprogress: () => first.open() })
    await first.promise
    const settled = new Promise<void>((resolve) => { s.ctx.on('tools/result', (exec) => { if (exec.name === 'everything__trigger-long-running-operation') resolve() }) })
    controller.abort('changed my mind')
    await expect(pending).rejects.toThrow()
    await settled
    expect(s.results.at(-1)?.result).toMatchObject({ isError: true, error: { info: { code: ABORTED } } })
  })

  it('asks a person through an elicitation when the client can, and runs the call on allow', async () => {
    const client = await s.client({ elicitation: { form: {} } })
    const asked: string[] = []
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message)
      return { action: 'accept', content: { answer: asked.length === 1 ? 'allow-once' : 'deny' } }
    })
    const allowed = await client.callTool({ name: 'everything__get-sum', arguments: { a: 2, b: 3 } })
    expect(firstText(allowed)).toBe('The sum of 2 and 3 is 5.')
    expect(asked[0]).toContain('Allow the call to "everything__get-sum"? sums need a person.')
    expect(asked[0]).toContain('{"a":2,"b":3}')
    const refused = await client.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 1 } })
    expect(firstText(refused)).toBe('Error: "everything__get-sum" was denied at approval (sums need a person)')
  })

  it('offers "allow for the session" over HTTP, and keeps the answer in that MCP session only', async () => {
    const [a, b] = [await s.client({ elicitation: { form: {} } }), await s.client({ elicitation: { form: {} } })]
    const asked = { a: 0, b: 0 }
    const offered: unknown[] = []
    a.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.a++
      offered.push((request.params as unknown as { requestedSchema: { properties: { answer: { enum: string[] } } } }).requestedSchema.properties.answer.enum)
      return { action: 'accept', content: { answer: 'allow-session' } }
    })
    b.setRequestHandler(ElicitRequestSchema, () => {
      asked.b++
      return { action: 'accept', content: { answer: 'deny' } }
    })
    expect(firstText(await a.callTool({ name: 'everything__get-sum', arguments: { a: 4, b: 4 } }))).toBe('The sum of 4 and 4 is 8.')
    expect(offered).toEqual([['allow-once', 'allow-session', 'deny']])
    // The same session: covered, not asked again.
    expect(firstText(await a.callTool({ name: 'everything__get-sum', arguments: { a: 5, b: 5 } }))).toBe('The sum of 5 and 5 is 10.')
    expect(asked.a).toBe(1)
    // Another session on the same server: asked (and its person denies).
    const other = await b.callTool({ name: 'everything__get-sum', arguments: { a: 4, b: 4 } })
    expect(asked.b).toBe(1)
    expect(firstText(other)).toBe('Error: "everything__get-sum" was denied at approval (sums need a person)')
  })

  it('refuses an ask from a client that cannot be asked, saying so', async () => {
    const client = await s.client()
    const result = await client.callTool({ name: 'everything__get-sum', arguments: { a: 2, b: 3 } })
    expect(result.isError).toBe(true)
    expect(firstText(result)).toMatch(/^Error: "everything__get-sum" needs approval \(sums need a person\), .*the MCP client cannot ask a person \(it did not declare the elicitation capability\)/)
  })

  it('makes each MCP session its own rein session, with call ids unique in it', async () => {
    const [a, b] = [await s.client(), await s.client()]
    await a.callTool({ name: 'weather', arguments: { city: 'A' } })
    await a.callTool({ name: 'weather', arguments: { city: 'B' } })
    await b.callTool({ name: 'weather', arguments: { city: 'C' } })
    const sessions = s.results.filter((r) => r.exec.name === 'weather' && ['A', 'B', 'C'].includes(r.exec.arguments.city as string))
    const [first, second, third] = sessions.map((r) => ({ session: r.exec.session?.id, id: r.exec.id }))
    expect(first.session).toBeTypeOf('string')
    expect(second.session).toBe(first.session)
    expect(third.session).not.toBe(first.session)
    expect(second.id).not.toBe(first.id)
    expect(codeOf(first.id, first.session!)).toBe('OK')
  })

  it('reports an upstream server that dies on the call it was running, and keeps serving', async () => {
    const client = await s.client()
    const connected = s.events.filter((e) => e.kind === 'connected' && e.server === 'everything').at(-1)
    const pid = connected?.kind === 'connected' ? connected.pid! : 0
    const first = gate()
    const pending = client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 30, steps: 300 } }, undefined, {
      onprogress: () => first.open() })
    await first.promise
    process.kill(pid, 'SIGKILL')
    const result = await pending
    expect(result.isError).toBe(true)
    expect(firstText(result)).toMatch(/^Error: MCP server "everything" is unavailable/)
    expect(s.results.at(-1)?.result).toMatchObject({ error: { info: { code: MCP_SERVER_UNAVAILABLE } } })
    // The next call starts the upstream server again; rein's server never stopped.
    const again = await client.callTool({ name: 'everything__echo', arguments: { message: 'back' } })
    expect(firstText(again)).toBe('Echo: back')
  })
})
