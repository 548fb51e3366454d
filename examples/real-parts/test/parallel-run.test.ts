/**
 * A whole agent run over HTTP: `@rein/provider-openai`, loaded from a rein.yaml, talks to a
 * Chat Completions server on 127.0.0.1 that streams two tool calls (deltas by index, the
 * arguments cut across events); the two `read_file` calls of `@rein/tools-fs` run at once,
 * and the second request carries both results in model order although they finished the
 * other way round.
 */
import { join } from 'node:path'
import { loadHarness } from '@rein/loader'
import { validateTranscript } from '@rein/testing'
import type { CallStartEvent, CallEndEvent } from '@rein/agent'
import { describe, expect, it } from 'vitest'
import { startChatServer, toolMessages } from '../src/index.js'
import { project, rendezvous } from './helpers.js'

const yaml = (baseURL: string) => `
provider:
  use: '@rein/provider-openai'
  config: { baseURL: '${baseURL}', model: scripted-model, apiKey: '\${env:LOOPBACK_KEY}', parallelToolCalls: true, maxRetries: 0 }
plugins:
  - use: '@rein/plugin-timeout-policy'
    config: { defaultMs: 5000 }
tools:
  - use: '@rein/tools-fs'
    config: { root: ./workspace }
agent: { maxTurns: 4, system: You read files when asked. }
`

describe('an agent run against a streaming Chat Completions server', () => {
  it('streams two tool calls, runs them in parallel and sends both results back in model order', async () => {
    const server = await startChatServer([
      {
        content: 'Reading both files.',
        toolCalls: [
          { id: 'call_alpha', name: 'read_file', arguments: { path: 'alpha.txt' } },
          { id: 'call_beta', name: 'read_file', arguments: { path: 'notes/beta.txt' } },
        ],
      },
      (request) => ({ content: `Both read: ${toolMessages(request).map((m) => m.toolCallId).join(', ')}.` }),
    ], { chunkSize: 5, interleave: true })
    const dir = await project({
      'rein.yaml': yaml(server.baseURL),
      'workspace/alpha.txt': 'the alpha line\n',
      'workspace/notes/beta.txt': 'the beta line\n',
    })
    const harness = await loadHarness(join(dir, 'rein.yaml'), { env: { LOOPBACK_KEY: 'sk-loopback-0000' } })
    try {
      const gate = rendezvous(['read_file'], 2)
      harness.ctx.plugin(gate.plugin)
      await harness.ctx.start()
      const events: string[] = []
      harness.ctx.on('agent/call-start', (e: CallStartEvent) => { events.push(`start ${e.id}`) })
      harness.ctx.on('agent/call-end', (e: CallEndEvent) => { events.push(`end ${e.id} ${e.result.isError ? 'error' : 'ok'}`) })
      let streamed = ''
      harness.ctx.on('agent/text-delta', (e) => { streamed += e.text })

      const outcome = await harness.agent.run('Read alpha.txt and notes/beta.txt.')

      expect(outcome.kind).toBe('completed')
      expect(validateTranscript(outcome.messages)).toEqual([])
      // Both bodies were inside at once; beta (entered last) finished first.
      expect(gate.log).toEqual(['enter call_alpha', 'enter call_beta', 'exit call_beta', 'exit call_alpha'])
      expect(events.slice(0, 2)).toEqual(['start call_alpha', 'start call_beta'])
      expect(events.filter((e) => e.startsWith('end')).sort()).toEqual(['end call_alpha ok', 'end call_beta ok'])

      // The provider assembled the interleaved deltas by index, and streamed the text live.
      expect(streamed).toBe('Reading both files.Both read: call_alpha, call_beta.')
      const assistant = outcome.messages.find((m) => m.role === 'assistant' && m.toolCalls)
      expect(assistant).toMatchObject({ toolCalls: [
        { id: 'call_alpha', name: 'read_file', arguments: '{"path":"alpha.txt"}' },
        { id: 'call_beta', name: 'read_file', arguments: '{"path":"notes/beta.txt"}' },
      ] })

      // What went over the wire.
      expect(server.requests).toHaveLength(2)
      const [first, second] = server.requests
      expect(first!.headers.authorization).toBe('Bearer sk-loopback-0000')
      expect(first!.body).toMatchObject({ model: 'scripted-model', stream: true, parallel_tool_calls: true })
      expect(first!.body.tools?.map((t) => t.function.name)).toEqual(
        expect.arrayContaining(['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep']))
      expect(second!.body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool'])
      expect(second!.body.messages[2]!.tool_calls!.map((c) => [c.id, c.function.arguments])).toEqual([
        ['call_alpha', '{"path":"alpha.txt"}'], ['call_beta', '{"path":"notes/beta.txt"}']])
      const results = toolMessages(second!)
      expect(results.map((m) => m.toolCallId)).toEqual(['call_alpha', 'call_beta'])
      expect(results[0]!.content).toContain('the alpha line')
      expect(results[1]!.content).toContain('the beta line')

      expect(outcome.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Both read: call_alpha, call_beta.' })
    } finally {
      await harness.dispose()
      await server.close()
    }
  })
})
