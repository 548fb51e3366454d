import fc from 'fast-check'
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, realpathSync, statSync } from 'node:fs'
import { appendFile, chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { defineTool } from '@rein/kernel'
import { callMessage, scripted, testSessionStore, toolCall } from '@rein/testing'
import { createAgent, jsonlSession, readSession, redactedSession, type NewSessionEntry } from '../src/index.js'
import { kernelContext, tempDir } from './helpers.js'
import { batchEntries, batchLines, line, logArb, tornTailArb } from './session-logs.js'

const tempFile = async () => join(await tempDir('rein-jsonl-'), 'nested', 'session.jsonl')

/**
 * What a kill leaves of a store's writer lock, in this process: its lock file, naming a process
 * that has ended (a child that ran and was reaped).
 */
async function abandonLock(path: string) {
  const lock = `${realpathSync(path)}.lock`
  const holder = JSON.parse(await readFile(lock, 'utf8'))
  await writeFile(lock, JSON.stringify({ ...holder, pid: spawnSync(process.execPath, ['-e', '']).pid }))
}

testSessionStore('jsonlSession(path)', async () => {
  const path = await tempFile()
  const store = jsonlSession(path)
  // A killed process leaves its file as the last sync left it and its lock naming a pid that is gone;
  // the open handle is simply dropped.
  return { store, reopen: () => jsonlSession(path), stored: async () => (await readSession(path)).entries, crash: () => abandonLock(path) }
}, { describe, it })

// Redaction keeps the store's contract: the wrapper is a store like any other.
testSessionStore('redactedSession(jsonlSession(path), redact)', async () => {
  const path = await tempFile()
  const redact = (text: string) => text.replaceAll('tok-0000-secret', '[REDACTED]')
  const open = () => redactedSession(jsonlSession(path), redact)
  return { store: open(), reopen: open, stored: async () => (await readSession(path)).entries, crash: () => abandonLock(path) }
}, { describe, it })

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
    const file = join(await tempDir('rein-jsonl-'), 'plain-file')
    await writeFile(file, '')
    const store = jsonlSession(join(file, 'session.jsonl'))
    await expect(store.append({ type: 'turn/end', turn: 1, outcome: 'committed' })).rejects.toThrow()
    await expect(store.append({ type: 'turn/end', turn: 2, outcome: 'committed' })).rejects.toThrow()
  })
})

const modeOf = (path: string) => statSync(path).mode & 0o777

/** Runs `body` with the process umask set to `mask`, then restores it. */
async function withUmask<T>(mask: number, body: () => Promise<T>): Promise<T> {
  const before = process.umask(mask)
  try {
    return await body()
  } finally {
    process.umask(before)
  }
}

describe('jsonlSession file modes (the log holds the transcript, secrets the model saw included)', () => {
  it('creates the file 0600 and every folder it makes 0700, even under a permissive umask', async () => {
    const root = await tempDir('rein-jsonl-')
    const path = join(root, 'a', 'b', 'session.jsonl')
    await withUmask(0, async () => {
      const store = jsonlSession(path)
      await store.append({ type: 'turn/end', turn: 1, outcome: 'committed' })
      await store.close?.()
    })
    expect([modeOf(join(root, 'a')), modeOf(join(root, 'a', 'b')), modeOf(path)]).toEqual([0o700, 0o700, 0o600])
  })

  it('gives them exactly those modes when the umask removes the owner\'s own bits', async () => {
    const root = await tempDir('rein-jsonl-')
    const path = join(root, 'a', 'b', 'session.jsonl')
    await withUmask(0o377, async () => {
      const store = jsonlSession(path)
      await store.append({ type: 'turn/end', turn: 1, outcome: 'committed' })
      await store.close?.()
    })
    expect([modeOf(join(root, 'a')), modeOf(join(root, 'a', 'b')), modeOf(path)]).toEqual([0o700, 0o700, 0o600])
  })

  it('leaves the mode of a file and folder that already exist as it is', async () => {
    const root = await tempDir('rein-jsonl-')
    const path = join(root, 'session.jsonl')
    await chmod(root, 0o755)
    await writeFile(path, line({ type: 'turn/end', turn: 1, outcome: 'committed' }, 1), { mode: 0o644 })
    await chmod(path, 0o644)
    const store = jsonlSession(path)
    await store.append({ type: 'turn/end', turn: 2, outcome: 'committed' })
    await store.close?.()
    expect([modeOf(root), modeOf(path)]).toEqual([0o755, 0o644])
  })
})

/** A session file holding `text` (or bytes); `load` must refuse it with `problem` at `line`, leaving it as it was. */
async function expectDamage(content: string | Buffer, lineNo: number, problem: string) {
  const path = join(await tempDir('rein-damage-'), 'session.jsonl')
  await writeFile(path, content)
  const store = jsonlSession(path)
  const error = await store.load().then(() => undefined, (e: Error) => e)
  expect(error?.message).toBe(`${path}:${lineNo}: ${problem}`)
  await expect(store.append({ type: 'turn/end', turn: 9, outcome: 'committed' })).rejects.toThrow(`${path}:${lineNo}: `)
  await store.close?.()
  expect(await readFile(path)).toEqual(Buffer.from(content))
}

const whole = () => batchLines().join('')

describe('jsonlSession on a damaged log: the file is refused, naming file and line, and left unchanged', () => {
  it('an appended null line', () =>
    expectDamage(`${whole()}null\n`, 6, 'entry is null, expected an object with "seq" and "type"'))

  it('a message entry without its message', () =>
    expectDamage(`${whole()}{"seq":6,"type":"message","turn":2}\n`, 6, '"message" is missing, expected a message object with a "role"'))

  it('an assistant message with toolCalls: [null]', () =>
    expectDamage(`${whole()}${line({ type: 'message', turn: 2, message: { role: 'assistant', content: '', toolCalls: [null] } }, 6)}`, 6,
      '"message.toolCalls[0]" must be a tool call object with string "id" and "name", got null'))

  it('a string turn', () =>
    expectDamage(`${whole()}${line({ type: 'turn/end', turn: '2', outcome: 'committed' }, 6)}`, 6,
      '"turn" must be a whole number of at least 1, got a string'))

  it('two lines swapped (seq out of order)', () => {
    const lines = batchLines();
    [lines[2], lines[3]] = [lines[3], lines[2]]
    return expectDamage(lines.join(''), 3, '"seq" is 4, expected 3 (one more than the entry before it)')
  })

  it('a line taken out (a gap in seq)', () => {
    const lines = batchLines()
    lines.splice(1, 1)
    return expectDamage(lines.join(''), 2, '"seq" is 3, expected 2 (one more than the entry before it)')
  })

  it('an assistant message with tool calls but no turn (its calls could never be answered)', () =>
    expectDamage(`${whole()}${line({ type: 'message', message: { role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'read' }] } }, 6)}`, 6,
      '"turn" is missing, expected a whole number of at least 1 (an assistant message with tool calls carries its turn)'))

  it('an entry of an unknown type', () =>
    expectDamage(`${whole()}{"seq":6,"type":"note","text":"hi"}\n`, 6,
      '"type" is "note", expected "message", "tool/call", "tool/result", "turn/end", "state", "approval/request" or "approval/answer"'))

  it('a tool/result whose message is not a tool result', () =>
    expectDamage(`${whole()}${line({ type: 'tool/result', turn: 1, index: 1, message: { role: 'tool', toolCallId: 'c2', content: 'text' } }, 6)}`, 6,
      '"message.content" must be an array of content blocks, got a string'))

  it('a torn line that is not the last (damage, not a tear)', () => {
    const lines = batchLines()
    lines[3] = `${lines[3].slice(0, 20)}\n`
    return expectDamage(lines.join(''), 4, 'not a JSON session entry (the line is not valid JSON)')
  })

  it('a line with invalid UTF-8 that parses, followed by a torn tail (no truncation at all)', () => {
    const lines = batchLines().map((l) => Buffer.from(l))
    lines[2][lines[2].indexOf('"path":"a"') + 8] = 0xc3 // the "a" becomes a lone lead byte
    expect(JSON.parse(lines[2].toString('utf8'))).toMatchObject({ seq: 3, call: { arguments: { path: '\ufffd' } } })
    return expectDamage(Buffer.concat([...lines, Buffer.from('{"seq":6,"ty')]), 3, 'not valid UTF-8 text')
  })
})

describe('jsonlSession repairs a torn last line by byte count', () => {
  it('reads any valid log past its torn tail, leaving the file as it is; its first write cuts exactly that tail off, byte for byte', async () => {
    const dir = await tempDir('rein-torn-')
    let run = 0
    const end: NewSessionEntry = { type: 'turn/end', turn: 1, outcome: 'committed' }
    await fc.assert(fc.asyncProperty(logArb, tornTailArb, async ({ stored, bytes }, tail) => {
      const path = join(dir, `${run++}.jsonl`)
      await writeFile(path, Buffer.concat([bytes, tail]))
      const reader = jsonlSession(path)
      expect(await reader.load()).toEqual(stored)
      await reader.close?.()
      expect(await readFile(path)).toEqual(Buffer.concat([bytes, tail]))
      const writer = jsonlSession(path)
      await writer.append(end)
      await writer.close?.()
      expect(await readFile(path)).toEqual(Buffer.concat([bytes, Buffer.from(line(end, stored.length + 1))]))
    }), { numRuns: 60 })
  })

  it('appends after the cut, numbering on from the last whole entry', async () => {
    const path = join(await tempDir('rein-torn-'), 'session.jsonl')
    await writeFile(path, Buffer.concat([Buffer.from(whole()), Buffer.from('{"seq":6,"message":"ä'), Buffer.from([0xe2, 0x9c])]))
    const store = jsonlSession(path)
    expect((await store.append({ type: 'turn/end', turn: 2, outcome: 'committed' })).seq).toBe(6)
    await store.close?.()
    expect(await readFile(path, 'utf8')).toBe(whole() + line({ type: 'turn/end', turn: 2, outcome: 'committed' }, 6))
  })

  it('keeps a whole last entry that lacks only its newline, and writes the newline before appending', async () => {
    const path = join(await tempDir('rein-torn-'), 'session.jsonl')
    await writeFile(path, whole().slice(0, -1))
    const store = jsonlSession(path)
    expect((await store.load()).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5])
    expect(await readFile(path, 'utf8')).toBe(whole().slice(0, -1))
    await store.append({ type: 'turn/end', turn: 2, outcome: 'committed' })
    await store.close?.()
    expect(await readFile(path, 'utf8')).toBe(whole() + line({ type: 'turn/end', turn: 2, outcome: 'committed' }, 6))
  })
})

describe('jsonlSession appends only what it can read back', () => {
  it('rejects an entry that is not valid, writing nothing and keeping later appends', async () => {
    const path = join(await tempDir('rein-jsonl-'), 'session.jsonl')
    const store = jsonlSession(path)
    const bad = { type: 'message', turn: 1 } as unknown as NewSessionEntry
    await expect(store.append(bad)).rejects.toThrow(
      `session entry not appended to ${path}: "message" is missing, expected a message object with a "role"`)
    expect((await store.append(batchEntries[0])).seq).toBe(1)
    await store.close?.()
    expect(await readFile(path, 'utf8')).toBe(line(batchEntries[0], 1))
  })

  it('rejects an approval entry a load would refuse after what the file holds, writing nothing and keeping later appends', async () => {
    const path = join(await tempDir('rein-jsonl-'), 'session.jsonl')
    const first = jsonlSession(path)
    const parked: NewSessionEntry[] = [
      { type: 'message', turn: 1, message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'push', arguments: '{}' }] } },
      { type: 'tool/call', turn: 1, index: 0, call: { id: 'c1', name: 'push', arguments: {} } },
      { type: 'approval/request', id: 'apr_1', turn: 1, index: 0, callId: 'c1', tool: 'push', arguments: {}, rule: 'r' },
      { type: 'approval/answer', id: 'apr_1', answer: 'allow-once', at: 1 },
    ]
    for (const entry of parked) await first.append(entry)
    await first.close?.()
    // Reopened: the rules hold against what the file held before this store.
    const store = jsonlSession(path)
    const again = store.append(parked[2])
    const second = store.append(parked[3])
    const after = store.append(parked[1])
    await expect(again).rejects.toThrow(`session entry not appended to ${path}: approval request id "apr_1" is used twice`)
    await expect(second).rejects.toThrow(/approval answer: approval request "apr_1" .* is already answered.*a load would refuse the file after it$/)
    expect((await after).seq).toBe(5)
    await store.close?.()
    expect((await readSession(path)).entries.map((e) => e.type)).toEqual(['message', 'tool/call', 'approval/request', 'approval/answer', 'tool/call'])
  })

  it('rejects an entry that cannot be written as JSON, writing nothing and keeping later appends', async () => {
    const path = join(await tempDir('rein-jsonl-'), 'session.jsonl')
    const store = jsonlSession(path)
    const big: NewSessionEntry = { type: 'tool/call', turn: 1, index: 0, call: { id: 'c1', name: 'read', arguments: { n: 1n } } }
    await expect(store.append(big)).rejects.toThrow(`session entries not appended to ${path}: they cannot be written as JSON (`)
    expect((await store.append(batchEntries[0])).seq).toBe(1)
    await store.close?.()
    expect(await readFile(path, 'utf8')).toBe(line(batchEntries[0], 1))
  })
})

describe('an agent on a damaged session log', () => {
  it('ends the run error with <file>:<line>: <problem>, asks the model nothing and leaves the file as it is', async () => {
    const path = join(await tempDir('rein-damage-'), 'session.jsonl')
    const content = `${whole()}null\n`
    await writeFile(path, content)
    const provider = scripted([])
    const agent = createAgent(await kernelContext(), { provider, session: jsonlSession(path) })
    const outcome = await agent.run('continue')
    expect(outcome.kind).toBe('error')
    expect(outcome.error?.message).toBe(`${path}:6: entry is null, expected an object with "seq" and "type"`)
    expect(outcome.messages).toEqual([])
    expect(provider.requests).toHaveLength(0)
    expect((await agent.run('again')).kind).toBe('error')
    expect(await readFile(path, 'utf8')).toBe(content)
  })
})

/** Makes `path` a `kind` of thing that is not a regular file; resolves the words the error uses for it. */
async function makeNotAFile(kind: string, path: string): Promise<string> {
  switch (kind) {
    case 'directory':
      await mkdir(path)
      return 'a directory'
    case 'FIFO':
      execFileSync('mkfifo', [path])
      return 'a FIFO (named pipe)'
    default: {
      const server = createServer()
      await new Promise<void>((resolve) => server.listen(path, resolve))
      onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
      return 'a socket'
    }
  }
}

const notAFile = (path: string, what: string) =>
  `session file ${path} is ${what}, not a regular file: a session is kept in a regular file; give the path of one, or of none yet to start a new session`

describe('jsonlSession on a path that is not a regular file: refused at once, naming the path and what it is', () => {
  it.each(['directory', 'FIFO', 'socket'])('a %s', async (kind) => {
    const path = join(await tempDir('rein-kind-'), 'session.jsonl')
    const what = await makeNotAFile(kind, path)
    const store = jsonlSession(path)
    await expect(store.load()).rejects.toThrow(notAFile(path, what))
    await expect(store.append({ type: 'turn/end', turn: 1, outcome: 'committed' })).rejects.toThrow(notAFile(path, what))
    await store.close?.()
    expect(existsSync(`${path}.lock`)).toBe(false)
  })

  it('a character device (/dev/null)', async () => {
    const store = jsonlSession('/dev/null')
    await expect(store.load()).rejects.toThrow(notAFile('/dev/null', 'a character device'))
    await store.close?.()
  })

  it('ends an agent run on a FIFO with that error, never waiting for a writer to the FIFO', async () => {
    const path = join(await tempDir('rein-kind-'), 'session.jsonl')
    execFileSync('mkfifo', [path])
    const provider = scripted([])
    const outcome = await createAgent(await kernelContext(), { provider, session: jsonlSession(path) }).run('go')
    expect(outcome).toMatchObject({ kind: 'error', error: { message: notAFile(path, 'a FIFO (named pipe)') } })
    expect(provider.requests).toHaveLength(0)
    expect(statSync(path).isFIFO()).toBe(true)
  })
})

describe('an agent on a session whose assistant message has tool calls but no turn', () => {
  it('ends the run error with <file>:<line>: <problem>, and never shows the model a transcript with unanswered calls', async () => {
    const path = join(await tempDir('rein-damage-'), 'session.jsonl')
    const content = line({ type: 'message', message: { role: 'user', content: 'hi' } }, 1) +
      line({ type: 'message', message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'echo', arguments: '{}' }] } }, 2)
    await writeFile(path, content)
    const provider = scripted([])
    const outcome = await createAgent(await kernelContext(), { provider, session: jsonlSession(path) }).run('continue')
    expect(outcome.kind).toBe('error')
    expect(outcome.error?.message).toBe(
      `${path}:2: "turn" is missing, expected a whole number of at least 1 (an assistant message with tool calls carries its turn)`)
    expect(provider.requests).toHaveLength(0)
    expect(await readFile(path, 'utf8')).toBe(content)
  })
})
