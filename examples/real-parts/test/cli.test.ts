/**
 * The `rein` command in process (`main(argv, io)` of `@rein/cli`): `rein check` accepts
 * `examples/deepseek.rein.yaml` as shipped, and `rein run` drives `@rein/provider-openai`
 * against a Chat Completions server on 127.0.0.1 to a printed answer.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { main } from '@rein/cli'
import { describe, expect, it } from 'vitest'
import { startChatServer, toolMessages } from '../src/index.js'
import { EXAMPLE, memoryIo, project, withOfflineNpm } from './helpers.js'

describe('rein check on examples/deepseek.rein.yaml', () => {
  it('loads the provider, the six plugins and three tool sources; an MCP server that cannot start is only a warning', async () => {
    const { io, stdout, stderr } = memoryIo(process.cwd(), { ...process.env, DEEPSEEK_API_KEY: 'sk-not-a-real-key' })
    const code = await withOfflineNpm(() => main(['check', '-c', EXAMPLE], io))
    expect(stderr()).toBe('')
    expect(code).toBe(0)
    // 6 from tools-fs, bash, read_spilled from spill; the MCP filesystem server could not be fetched.
    expect(stdout()).toContain('deepseek.rein.yaml: a provider, 6 plugin(s), 3 tool source(s) (8 tools), all configs valid')
  })

  it('fails without the API key, naming the variable', async () => {
    const env = { ...process.env }
    delete env.DEEPSEEK_API_KEY
    const { io, stderr } = memoryIo(process.cwd(), env)
    expect(await main(['check', '-c', EXAMPLE], io)).toBe(1)
    expect(stderr()).toMatch(/deepseek\.rein\.yaml:\d+ provider \(@rein\/provider-openai\): environment variable DEEPSEEK_API_KEY is not set/)
  })
})

describe('rein run against a loopback Chat Completions server', () => {
  it('runs the task through a real tool and prints the final answer', async () => {
    const server = await startChatServer([
      { content: 'Let me read the note.', toolCalls: [{ id: 'call_note', name: 'read_file', arguments: { path: 'note.txt' } }] },
      (request) => ({ content: toolMessages(request)[0]?.content.includes('remember the milk') ? 'The note says: remember the milk.' : 'I could not read it.' }),
    ])
    try {
      const dir = await project({
        'rein.yaml': [
          `provider: { use: '@rein/provider-openai', config: { baseURL: '${server.baseURL}', model: scripted, apiKey: '\${env:LOOPBACK_KEY}' } }`,
          'tools: [{ use: "@rein/tools-fs", config: { root: ./workspace } }]',
          'session: ./runs/session.jsonl',
        ].join('\n'),
        'workspace/note.txt': 'remember the milk\n',
      })
      const { io, stdout, stderr } = memoryIo(dir, { LOOPBACK_KEY: 'sk-loopback-1111' })

      const code = await main(['run', '-c', 'rein.yaml', 'What does the note say?'], io)

      expect({ code, stderr: code === 0 ? '' : stderr() }).toEqual({ code: 0, stderr: '' })
      expect(stdout()).toContain('The note says: remember the milk.')
      expect(stdout()).toContain('read_file')
      expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer sk-loopback-1111', 'Bearer sk-loopback-1111'])
      expect(server.requests[0]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'What does the note say?' })
      const session = (await readFile(join(dir, 'runs/session.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line).type)
      expect(session).toEqual(['message', 'message', 'tool/call', 'tool/result', 'turn/end', 'message'])
    } finally {
      await server.close()
    }
  })
})
