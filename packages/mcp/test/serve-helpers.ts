/**
 * A harness served over Streamable HTTP on 127.0.0.1 (a free port) for the `rein mcp serve`
 * tests: the kernel, timeout-policy, permission-guard, this package's plugin with the real
 * everything server behind it, and two tools of its own. Clients are the SDK's own `Client`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, type ToolExec, type ToolExecutionResult } from '@rein/kernel'
import * as permissionGuard from '@rein/plugin-permission-guard'
import * as timeoutPolicy from '@rein/plugin-timeout-policy'
import * as mcp from '../src/index.js'
import { serveHttp, type HttpServing, type McpHostOptions } from '../src/serve/index.js'
import type { McpServerEvent } from '../src/index.js'
import { captureLogs, exited, referenceServer } from './helpers.js'

export interface Served {
  ctx: Context
  http: HttpServing
  /** Every finished call: what the pipeline saw and its result. */
  results: { exec: ToolExec, result: ToolExecutionResult }[]
  events: McpServerEvent[]
  warnings: string[]
  /** A connected client with `capabilities`; closed by `close()`. */
  client(capabilities?: ClientCapabilities): Promise<Client>
  close(): Promise<void>
}

export const RULES = [
  { tool: 'everything__get-env', action: 'deny', reason: 'the environment stays private' },
  { tool: 'everything__echo', action: 'deny', when: { message: 'rm*' }, reason: 'no rm here' },
  { tool: 'everything__get-sum', action: 'ask', reason: 'sums need a person' },
] as const

/** Serves the fixture harness; `hostOptions` go to the server. */
export async function served(hostOptions: McpHostOptions = {}): Promise<Served> {
  const { warnings } = captureLogs('mcp-serve')
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  const results: Served['results'] = []
  const events: McpServerEvent[] = []
  ctx.on('tools/result', (exec, result) => { results.push({ exec, result }) })
  ctx.on('mcp/server', (event) => { events.push(event) })
  ctx.plugin(timeoutPolicy, { defaultMs: 20_000, tools: { 'everything__trigger-long-running-operation': 1500 } })
  ctx.plugin(permissionGuard, { rules: [...RULES] })
  const upstream = ctx.plugin(mcp, { servers: { everything: referenceServer('everything', ['stdio']) } })
  ctx.plugin({
    name: 'own-tools',
    inject: ['tools'],
    apply: (c: Context) => {
      c.tools.register(defineTool({
        name: 'weather',
        description: 'The weather in a city, as an object.',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        output: { schema: { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'number' } }, required: ['city', 'celsius'] } },
        execute: (args: { city: string }) => ({ city: args.city, celsius: 21 }),
      }))
      c.tools.register(defineTool({
        name: 'steps',
        description: 'Reports three steps of progress, then says done.',
        parameters: { type: 'object' },
        async execute(_args, exec) {
          for (let step = 1; step <= 3; step++) {
            exec.progress({ progress: step, total: 3, message: `step ${step}` })
            await new Promise((resolve) => setTimeout(resolve, 5))
          }
          return 'done'
        },
      }))
    },
  })
  await ctx.start()
  const http = await serveHttp(ctx, { host: '127.0.0.1', port: 0 }, hostOptions)
  const clients: Client[] = []
  return {
    ctx, http, results, events, warnings,
    async client(capabilities = {}) {
      const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities })
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)))
      clients.push(client)
      return client
    },
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => {})))
      await http.close()
      const pids = events.flatMap((e) => e.kind === 'connected' && e.pid !== undefined ? [e.pid] : [])
      upstream.dispose()
      await Promise.all(pids.map(exited))
    },
  }
}

/** The text of the first content block of an MCP result. */
export function firstText(result: unknown): string {
  const content = (result as { content?: { type: string, text?: string }[] }).content ?? []
  return content[0]?.type === 'text' ? content[0].text ?? '' : ''
}
