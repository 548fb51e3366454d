/**
 * MCP tools under the policy plugins, from a rein.yaml and through the agent loop: the
 * everything server (run over stdio with this Node, behind a tap that logs what reaches it)
 * with `@rein/plugin-timeout-policy` giving its slow tool 300 ms, and
 * `@rein/plugin-permission-guard` denying one of its tools. The slow call ends TOOL_TIMEOUT
 * and the same server answers the next call; the denied call never reaches the server.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadHarness } from '@rein/loader'
import type { CallEndEvent } from '@rein/agent'
import { Messages, TOOL_DENIED, TOOL_TIMEOUT, type ToolMessage } from '@rein/kernel'
import { callMessage, scripted, toolCall, validateTranscript } from '@rein/testing'
import { describe, expect, it } from 'vitest'
import { project } from './helpers.js'

const require = createRequire(import.meta.url)
const TEE = fileURLToPath(new URL('./fixtures/tee-stdio.mjs', import.meta.url))

/** The entry script of the everything server installed in this package. */
function everythingScript(): string {
  const manifest = require.resolve('@modelcontextprotocol/server-everything/package.json')
  const { bin } = require(manifest) as { bin: Record<string, string> }
  return join(dirname(manifest), Object.values(bin)[0]!)
}

const yaml = (log: string) => `
plugins:
  - use: '@rein/plugin-timeout-policy'
    config:
      tools: { 'everything__trigger-long-running-operation': 300 }
  - use: '@rein/plugin-permission-guard'
    config:
      rules:
        - { tool: everything__get-env, action: deny, reason: the server environment is private }
tools:
  - use: '@rein/mcp'
    config:
      servers:
        everything: { command: ${JSON.stringify(process.execPath)}, args: ${JSON.stringify([TEE, log, everythingScript(), 'stdio'])} }
`

/** The JSON-RPC messages the server received, in order. */
async function received(log: string): Promise<{ id?: number, method?: string, params?: Record<string, any> }[]> {
  const text = await readFile(log, 'utf8')
  return text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line))
}

describe('MCP tools through the policy plugins', () => {
  it('times out a slow MCP tool, keeps the server, and denies one tool before it reaches the server', async () => {
    const dir = await project({})
    const log = join(dir, 'server-input.jsonl')
    await writeFile(join(dir, 'rein.yaml'), yaml(log))
    const provider = scripted([
      callMessage([toolCall('slow', 'everything__trigger-long-running-operation', { duration: 5, steps: 1 })]),
      callMessage([
        toolCall('echo', 'everything__echo', { message: 'still here' }),
        toolCall('env', 'everything__get-env'),
      ]),
    ])
    const harness = await loadHarness(join(dir, 'rein.yaml'), { provider })
    try {
      expect(harness.ctx.tools.chain('tools/execute')).toEqual(['timeout-policy'])
      expect(harness.ctx.tools.chain('guards')).toEqual(['permission-guard'])
      const codes = new Map<string, string>()
      harness.ctx.on('agent/call-end', (e: CallEndEvent) => {
        codes.set(e.id, e.result.isError ? String(e.result.error.info?.code) : 'OK')
      })

      const outcome = await harness.agent.run('Exercise the everything server.')

      expect(outcome.kind).toBe('completed')
      expect(validateTranscript(outcome.messages)).toEqual([])
      expect(Object.fromEntries(codes)).toEqual({ slow: TOOL_TIMEOUT, echo: 'OK', env: TOOL_DENIED })
      const text = (id: string) => {
        const message = outcome.messages.find((m): m is ToolMessage => m.role === 'tool' && m.toolCallId === id)
        return message?.content.map((block) => block.type === 'text' ? block.text : '').join('\n')
      }
      expect(text('slow')).toBe(`Error: ${Messages.timedOut(300)}`)
      expect(text('echo')).toBe('Echo: still here')
      expect(text('env')).toBe('Error: the server environment is private')

      // The server: started once, told to cancel the slow call, never asked for get-env.
      const messages = await received(log)
      expect(messages.filter((m) => m.method === 'initialize')).toHaveLength(1)
      const calls = messages.filter((m) => m.method === 'tools/call')
      expect(calls.map((m) => m.params?.name)).toEqual(['trigger-long-running-operation', 'echo'])
      const cancelled = messages.filter((m) => m.method === 'notifications/cancelled')
      expect(cancelled.map((m) => m.params?.requestId)).toEqual([calls[0]!.id])
    } finally {
      await harness.dispose()
    }
  })
})
