/**
 * A harness served over Streamable HTTP on 127.0.0.1 (a free port) for the `rein mcp serve`
 * tests: the kernel, timeout-policy, permission-guard, this package's plugin with the real
 * everything server behind it, and two tools of its own. Clients are the SDK's own `Client`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js'
import { request } from 'node:http'
import { Context } from 'cordis'
import * as kernel from '@rein/kernel'
import { defineTool, type ToolExec, type ToolExecutionResult } from '@rein/kernel'
import * as permissionGuard from '@rein/plugin-permission-guard'
import * as timeoutPolicy from '@rein/plugin-timeout-policy'
import * as mcp from '../src/index.js'
import { serveHttp, type HttpOptions, type HttpServing, type McpHostOptions } from '../src/serve/index.js'
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

export interface Bare {
  ctx: Context
  http: HttpServing
  port: number
  results: { exec: ToolExec, result: ToolExecutionResult }[]
  warnings: string[]
  /** The ids of the sessions that ended, in order; `ended(id)` resolves once `id` has. */
  endedIds: string[]
  ended(id: string): Promise<void>
  /** Resolves when the `hold` tool has started its `n`-th call (1-based). */
  holding(n: number): Promise<void>
  /** Lets every `hold` call that waits now finish. */
  release(): void
  close(): Promise<void>
}

/**
 * A kernel with three tools of its own (no upstream server), served over HTTP on 127.0.0.1
 * with `options`: `echo`, `hold` (waits until `release()` or its abort) and `chatty` (reports
 * `count` progress steps of `size` characters each, yielding between them, then says done).
 */
export async function bare(options: HttpOptions = {}): Promise<Bare> {
  const { warnings } = captureLogs('mcp-serve')
  const ctx = new Context()
  ctx.plugin(kernel)
  await ctx.start()
  const results: Bare['results'] = []
  ctx.on('tools/result', (exec, result) => { results.push({ exec, result }) })
  let started = 0
  const startWaiters: { n: number, wake: () => void }[] = []
  let waiting: (() => void)[] = []
  ctx.plugin({
    name: 'bare-tools',
    inject: ['tools'],
    apply: (c: Context) => {
      c.tools.register(defineTool({ name: 'echo', description: 'Echoes its arguments.', parameters: { type: 'object' }, execute: (args) => JSON.stringify(args) }))
      c.tools.register(defineTool({
        name: 'hold',
        description: 'Waits until the test releases it, or until aborted.',
        parameters: { type: 'object' },
        async execute(_args, exec) {
          started++
          for (const w of startWaiters.filter((w) => w.n <= started)) w.wake()
          await new Promise<void>((resolve) => {
            waiting.push(resolve)
            exec.signal?.addEventListener('abort', () => resolve(), { once: true })
          })
          return exec.signal?.aborted ? 'aborted' : 'released'
        },
      }))
      c.tools.register(defineTool({
        name: 'chatty',
        description: 'Reports many large progress steps, then says done.',
        parameters: { type: 'object', properties: { count: { type: 'number' }, size: { type: 'number' } } },
        async execute(args: { count?: number, size?: number }, exec) {
          const blob = 'x'.repeat(args.size ?? 1024)
          const count = args.count ?? 10
          for (let step = 1; step <= count; step++) {
            exec.progress({ progress: step, total: count, message: blob })
            await new Promise((resolve) => setImmediate(resolve))
          }
          return 'done'
        },
      }))
    },
  })
  await ctx.start()
  const endedIds: string[] = []
  const endWaiters = new Map<string, () => void>()
  const http = await serveHttp(ctx, { host: '127.0.0.1', port: 0 }, {
    ...options,
    sessionEnded: async (id) => {
      endedIds.push(id)
      endWaiters.get(id)?.()
      await options.sessionEnded?.(id)
    },
  })
  return {
    ctx, http, results, warnings, endedIds,
    port: Number(new URL(http.url).port),
    ended: (id) => endedIds.includes(id) ? Promise.resolve() : new Promise((resolve) => { endWaiters.set(id, resolve) }),
    holding: (n) => started >= n ? Promise.resolve() : new Promise((wake) => { startWaiters.push({ n, wake }) }),
    release() {
      const all = waiting
      waiting = []
      for (const resolve of all) resolve()
    },
    close: () => http.close(),
  }
}

/** An HTTP answer read whole: status, headers and body. */
export interface RawAnswer { status: number, headers: Record<string, string | string[] | undefined>, body: string }

/** One request to `127.0.0.1:port` with exactly `headers` (Host included: node:http lets a test set it). */
export function raw(port: number, options: { method?: string, path?: string, headers?: Record<string, string>, body?: unknown } = {}): Promise<RawAnswer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body)
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port, path: options.path ?? '/mcp', method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...options.headers },
    }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { text += chunk })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

export const INITIALIZE = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-client', version: '1.0.0' } },
}

/** Initializes a session with raw requests (no GET stream is opened); returns its id and the headers of its later requests. */
export async function rawSession(port: number): Promise<{ id: string, headers: Record<string, string> }> {
  const answer = await raw(port, { body: INITIALIZE })
  const id = answer.headers['mcp-session-id']
  if (answer.status !== 200 || typeof id !== 'string') throw new Error(`initialize answered ${answer.status}: ${answer.body}`)
  const headers = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' }
  const initialized = await raw(port, { headers, body: { jsonrpc: '2.0', method: 'notifications/initialized' } })
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`)
  return { id, headers }
}
