import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { serveHttp, type HttpServing } from '../src/serve/index.js'
import { dynamicServer, gate, harness, type Harness } from './helpers.js'

let h: Harness
let http: HttpServing
beforeAll(async () => {
  h = await harness({ servers: { dyn: dynamicServer() } })
  http = await serveHttp(h.ctx, { host: '127.0.0.1', port: 0 })
}, 30_000)
afterAll(async () => {
  await http?.close()
  await h?.close()
}, 15_000)

it('tells every client when an upstream server changed its tools, and lists the new ones', async () => {
  const client = new Client({ name: 'test-client', version: '1.0.0' })
  const changed = gate()
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed.open())
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)))
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('dyn__extra')
    await client.callTool({ name: 'dyn__add_tool', arguments: { name: 'extra' } })
    await changed.promise
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('dyn__extra')
  } finally {
    await client.close()
  }
})
