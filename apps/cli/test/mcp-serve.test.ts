import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { randomUUID } from 'node:crypto'
import { readdir, readFile, utimes } from 'node:fs/promises'
import { request } from 'node:http'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { answerApproval, jsonlSession } from '@rein/agent'
import { ExitCodes } from '../src/exit-codes.js'
import { BIN, project, rein, requireBuild, spawnRein } from './helpers.js'

const require = createRequire(import.meta.url)
const manifest = require.resolve('@modelcontextprotocol/server-everything/package.json')
const EVERYTHING = join(dirname(manifest), Object.values((require(manifest) as { bin: Record<string, string> }).bin)[0]!)

// A harness with no provider: policy plugins, a noisy local plugin, and the everything server behind it.
const REIN_YAML = `
plugins:
  - use: '@rein/plugin-audit'
    config: { file: ./audit.jsonl }
  - use: '@rein/plugin-timeout-policy'
    config: { defaultMs: 20000, tools: { everything__trigger-long-running-operation: 1500 } }
  - use: '@rein/plugin-permission-guard'
    config:
      rules:
        - { tool: everything__get-env, action: deny }
        - { tool: everything__echo, action: deny, when: { message: 'rm*' }, reason: no rm here }
  - use: ./noisy.mjs
tools:
  - use: '@rein/mcp'
    config: { servers: { everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(EVERYTHING)}, stdio] } } }
`
// Writes to stdout in every way a plugin might: none of it may reach the protocol's stream.
const NOISY = `
export const name = 'noisy'
export function apply(ctx) {
  console.log('noisy: console.log')
  process.stdout.write('noisy: stdout.write\\n')
  ctx.logger('noisy').info('noisy: logger info')
  ctx.logger('noisy').warn('noisy: logger warn')
}
`

const clients: Client[] = []
afterEach(async () => { await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {}))) })

beforeAll(() => requireBuild())

const text = (result: unknown) => ((result as { content: { text?: string }[] }).content[0]?.text ?? '')

describe('rein mcp serve over stdio (the real command, spawned)', () => {
  it('serves the upstream tools through the plugins, with only the protocol on stdout', async () => {
    const dir = await project({ 'rein.yaml': REIN_YAML, 'noisy.mjs': NOISY })
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', 'serve'], cwd: dir, stderr: 'pipe' })
    let stderr = ''
    transport.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
    const client = new Client({ name: 'test-client', version: '1.0.0' })
    const protocolErrors: Error[] = []
    client.onerror = (error) => protocolErrors.push(error)
    clients.push(client)
    await client.connect(transport)

    const names = (await client.listTools()).tools.map((tool) => tool.name)
    expect(names).toContain('everything__echo')
    expect(names).not.toContain('everything__get-env')
    expect(text(await client.callTool({ name: 'everything__echo', arguments: { message: 'hi' } }))).toBe('Echo: hi')
    const denied = await client.callTool({ name: 'everything__echo', arguments: { message: 'rm -rf ~' } })
    expect(denied).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Error: no rm here' }] })
    const slow = await client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 30, steps: 300 } })
    expect(slow).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Error: tool call timed out after 1500ms' }] })

    const controller = new AbortController()
    let started!: () => void
    const progressed = new Promise<void>((resolve) => { started = resolve })
    const cancelled = client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 30, steps: 300 } }, undefined,
      { signal: controller.signal, onprogress: () => started() })
    await progressed
    controller.abort('no longer needed')
    await expect(cancelled).rejects.toThrow()
    await client.close()

    // The audit plugin saw every call, the cancelled one as ABORTED, each in the stdio session.
    const audit = await waitForLines(join(dir, 'audit.jsonl'), 4)
    expect(audit.map((line) => line.code ?? 'OK')).toEqual(['OK', 'TOOL_DENIED', 'TOOL_TIMEOUT', 'ABORTED'])
    expect(protocolErrors).toEqual([])
    expect(stderr).toContain('noisy: console.log')
    expect(stderr).toContain('noisy: stdout.write')
    expect(stderr).toContain('noisy: logger warn')
  })

  it('fails with the config problem on stderr and exit 1 when the file does not load', async () => {
    const dir = await project({ 'rein.yaml': 'plugins:\n  - use: "@rein/plugin-retry"\n    config: { maxAttempts: many }\n' })
    const child = spawnRein(['mcp', 'serve'], dir)
    expect(await child.exited).toBe(ExitCodes.FAILURE)
    expect(child.stdout()).toBe('')
    expect(child.stderr()).toMatch(/rein mcp: .*rein\.yaml:3.*maxAttempts/)
  })
})

// Asks about sums, and parks what the client cannot answer.
const PARKING = `
agent: { approvals: park }
plugins:
  - use: '@rein/plugin-permission-guard'
    config:
      rules:
        - { tool: everything__get-sum, action: ask, reason: sums need a person }
tools:
  - use: '@rein/mcp'
    config: { servers: { everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(EVERYTHING)}, stdio] } } }
`

describe('rein mcp serve with agent: { approvals: park } (the real command, spawned)', () => {
  it('refuses an ask of a client without elicitation naming a request in the session file under .rein/mcp-sessions; answered there, the call again runs', async () => {
    const dir = await project({ 'rein.yaml': PARKING })
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', 'serve'], cwd: dir, stderr: 'pipe' })
    const client = new Client({ name: 'test-client', version: '1.0.0' })
    clients.push(client)
    await client.connect(transport)
    const call = { name: 'everything__get-sum', arguments: { a: 2, b: 3 } }
    const refused = text(await client.callTool(call))
    const found = /recorded as (apr_[\w-]+) in session (\S+): answer it with `rein approve \1 --session \2`/.exec(refused)
    expect(found, refused).not.toBeNull()
    const [, id, file] = found!
    expect(file!.startsWith(join(dir, '.rein', 'mcp-sessions', 'stdio-'))).toBe(true)
    const store = jsonlSession(file!)
    await answerApproval(store, id!, 'allow-once', { by: 'test' })
    await store.close?.()
    expect(text(await client.callTool(call))).toBe('The sum of 2 and 3 is 5.')
  })

  it('removes at start the session files a killed server left, and a session\'s file when its client ends it', async () => {
    const old = `${randomUUID()}.jsonl`
    const recent = `stdio-${randomUUID()}.jsonl`
    const dir = await project({ 'rein.yaml': PARKING, [`.rein/mcp-sessions/${old}`]: '', [`.rein/mcp-sessions/${recent}`]: '', '.rein/mcp-sessions/notes.jsonl': '' })
    const sessions = join(dir, '.rein', 'mcp-sessions')
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000)
    await Promise.all([old, 'notes.jsonl'].map((name) => utimes(join(sessions, name), eightDaysAgo, eightDaysAgo)))
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', 'serve'], cwd: dir, stderr: 'pipe' })
    const client = new Client({ name: 'test-client', version: '1.0.0' })
    clients.push(client)
    await client.connect(transport)
    const file = /in session (\S+): answer it/.exec(text(await client.callTool({ name: 'everything__get-sum', arguments: { a: 2, b: 3 } })))?.[1]
    expect(file).toBeDefined()
    expect((await readdir(sessions)).filter((name) => name.endsWith('.jsonl')).sort()).toEqual([basename(file!), 'notes.jsonl', recent].sort())
    // Closing the client ends stdin, and the server with it (close() waits up to 2 s for the
    // process to exit, then sends SIGTERM, which ends it the same way): wait for the file to go.
    await client.close()
    await expect.poll(async () => (await readdir(sessions)).sort(), { timeout: 30_000 }).toEqual(['notes.jsonl', recent].sort())
  })
})

// A provider whose key is not set: the file's provider is not loaded, since no model is asked.
const WITH_PROVIDER = `provider: { use: '@rein/provider-openai', config: { model: m, apiKey: '\${env:REIN_TEST_NO_SUCH_KEY}' } }\n${REIN_YAML}`

describe('rein mcp serve --http (the real command, spawned)', () => {
  it('serves Streamable HTTP on a free port, ignores the provider, and stops on SIGTERM', async () => {
    const dir = await project({ 'rein.yaml': WITH_PROVIDER, 'noisy.mjs': NOISY })
    const child = spawnRein(['mcp', 'serve', '--http', '127.0.0.1:0', '--allow-origin', 'http://localhost:5173', '--allow-host', 'rein.test'], dir)
    const url = await new Promise<string>((resolve, reject) => {
      const poll = setInterval(() => {
        const found = /serving \d+ tools at (http:\/\/\S+)/.exec(child.stderr())
        if (found) { clearInterval(poll); resolve(found[1]) }
      }, 20)
      child.exited.then((code) => { clearInterval(poll); reject(new Error(`exited ${code}: ${child.stderr()}`)) })
    })
    const client = new Client({ name: 'test-client', version: '1.0.0' })
    clients.push(client)
    await client.connect(new StreamableHTTPClientTransport(new URL(url)))
    expect(text(await client.callTool({ name: 'everything__echo', arguments: { message: 'over http' } }))).toBe('Echo: over http')
    await client.close()
    // DNS rebinding protection: a foreign Host or Origin is refused, the ones allowed by flag are answered.
    const port = Number(new URL(url).port)
    expect(await initializeStatus(port, { host: `evil.example:${port}` })).toBe(403)
    expect(await initializeStatus(port, { host: `127.0.0.1:${port}`, origin: 'https://evil.example' })).toBe(403)
    expect(await initializeStatus(port, { host: `127.0.0.1:${port}`, origin: 'http://localhost:5173' })).toBe(200)
    expect(await initializeStatus(port, { host: 'rein.test:8080' })).toBe(200)
    child.child.kill('SIGTERM')
    expect(await child.exited).toBe(ExitCodes.OK)
  })
})

describe('rein mcp, usage', () => {
  it('names the subcommand, the address form and the days to keep when they are wrong', async () => {
    expect(await rein(['mcp', 'start'])).toMatchObject({ code: ExitCodes.USAGE, stderr: expect.stringContaining('unknown subcommand "start"') })
    expect(await rein(['mcp', 'serve', '--http', 'localhost'])).toMatchObject({
      code: ExitCodes.USAGE, stderr: expect.stringContaining('expected <host:port>, such as 127.0.0.1:3333') })
    expect(await rein(['mcp', 'serve', '--http', '0.0.0.0:0'])).toMatchObject({
      code: ExitCodes.USAGE, stderr: expect.stringContaining('0.0.0.0 is not a loopback address, and the server has no authentication') })
    expect((await rein(['mcp', 'serve', '--http', '0.0.0.0:0'])).stderr).toContain('add --allow-remote')
    expect(await rein(['mcp', 'serve', '--http', '127.0.0.1:0', '--allow-origin', 'localhost:5173'])).toMatchObject({
      code: ExitCodes.USAGE, stderr: expect.stringContaining('allowed origin "localhost:5173": expected <http or https>://<host>[:port]') })
    expect(await rein(['mcp', 'serve', '--allow-host', 'rein.test'])).toMatchObject({
      code: ExitCodes.USAGE, stderr: expect.stringContaining('--allow-host, --allow-origin and --allow-remote go with --http') })
    for (const days of ['0', 'week']) {
      expect(await rein(['mcp', 'serve', '--keep-sessions', days])).toMatchObject({
        code: ExitCodes.USAGE, stderr: expect.stringContaining('--keep-sessions must be a number of days above 0') })
    }
  })
})

/** The status of an initialize sent to 127.0.0.1:`port` with exactly these headers (node:http lets Host be set). */
function initializeStatus(port: number, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** The JSON lines of `file` once it holds `count` of them (the server writes them as calls finish). */
async function waitForLines(file: string, count: number): Promise<Record<string, unknown>[]> {
  for (let i = 0; i < 250; i++) {
    const lines = await readFile(file, 'utf8').then((t) => t.trim().split('\n').filter(Boolean), () => [])
    if (lines.length >= count) return lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`${file} never held ${count} lines`)
}
