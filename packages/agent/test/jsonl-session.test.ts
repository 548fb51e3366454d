import { appendFile, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defineTool } from '@rein/kernel'
import { callMessage, scripted, toolCall } from '@rein/testing'
import { createAgent, jsonlSession } from '../src/index.js'
import { kernelContext } from './helpers.js'
import { testSessionStore } from './session-contract.js'

const tempFile = async () => join(await mkdtemp(join(tmpdir(), 'rein-jsonl-')), 'nested', 'session.jsonl')

testSessionStore('jsonlSession(path)', async () => {
  const path = await tempFile()
  return { store: jsonlSession(path), reopen: () => jsonlSession(path) }
})

describe('jsonlSession', () => {
  it('writes one JSON entry per line', async () => {
    const path = await tempFile()
    const store = jsonlSession(path)
    await store.append({ type: 'turn/end', turn: 1, outcome: 'committed' })
    await store.close?.()
    expect(await readFile(path, 'utf8')).toBe('{"type":"turn/end","turn":1,"outcome":"committed","seq":1}\n')
  })

  it('cuts off a torn last line (a write cut short by a crash) and appends after the last whole entry', async () => {
    const path = await tempFile()
    const first = jsonlSession(path)
    await first.append({ type: 'turn/end', turn: 1, outcome: 'committed' })
    await first.close?.()
    await appendFile(path, '{"type":"tool/ca')
    const second = jsonlSession(path)
    expect((await second.load()).map((e) => e.seq)).toEqual([1])
    await second.append({ type: 'turn/end', turn: 2, outcome: 'committed' })
    await second.close?.()
    const lines = (await readFile(path, 'utf8')).split('\n')
    expect(lines.map((line) => line && JSON.parse(line).seq)).toEqual([1, 2, ''])
  })

  it('refuses a damaged file, naming the file and the line', async () => {
    const path = await tempFile()
    const first = jsonlSession(path)
    await first.load()
    await first.close?.()
    await writeFile(path, '{"seq":1,"type":"turn/end","turn":1,"outcome":"committed"}\nnot json\n')
    await expect(jsonlSession(path).load()).rejects.toThrow(`${path}:2: not a JSON session entry`)
  })

  it('has the tool/call on disk before the tool body runs', async () => {
    const path = await tempFile()
    const ctx = await kernelContext()
    let seenByBody = ''
    ctx.tools.register(defineTool({
      name: 'peek', description: 'reads the session file', parameters: { type: 'object' },
      execute: async () => { seenByBody = await readFile(path, 'utf8'); return 'ok' },
    }))
    const session = jsonlSession(path)
    await createAgent(ctx, { provider: scripted([callMessage([toolCall('call_1', 'peek')])]), session }).run('go')
    await session.close?.()
    const last = JSON.parse(seenByBody.trim().split('\n').at(-1)!)
    expect(last).toMatchObject({ type: 'tool/call', turn: 1, index: 0, call: { id: 'call_1', name: 'peek' } })
  })

  it('rejects appends it cannot store (its folder is a file), never dropping them silently', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'rein-jsonl-')), 'plain-file')
    await writeFile(file, '')
    const store = jsonlSession(join(file, 'session.jsonl'))
    await expect(store.append({ type: 'turn/end', turn: 1, outcome: 'committed' })).rejects.toThrow()
    await expect(store.append({ type: 'turn/end', turn: 2, outcome: 'committed' })).rejects.toThrow()
  })
})
