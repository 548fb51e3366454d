import fc from 'fast-check'
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { jsonlSession, parseSessionLog, readSession, SessionLogError } from '../src/index.js'
import { tempDir } from './helpers.js'
import { batchEntries, batchLines, line, logArb, tornTailArb } from './session-logs.js'
import type { NewSessionEntry } from '../src/index.js'

type ResultEntry = Extract<NewSessionEntry, { type: 'tool/result' }>

/** `batchEntries` with its tool/result moved to position `at` and changed by `change` (`toolCallId` goes into its message). */
function batchEntriesWith(at: number, change: { toolCallId?: string, index?: number }): NewSessionEntry[] {
  const result = batchEntries[3] as ResultEntry
  const changed: ResultEntry = { ...result, index: change.index ?? result.index, message: { ...result.message, toolCallId: change.toolCallId ?? result.message.toolCallId } }
  const rest = batchEntries.filter((entry) => entry !== result)
  return [...rest.slice(0, at), changed, ...rest.slice(at)]
}

const FILE = '/logs/s.jsonl'
const parse = (data: string | Buffer) => parseSessionLog(data, FILE)

describe('parseSessionLog', () => {
  it('reads every whole line as an entry, in seq order', () => {
    const text = batchLines().join('')
    const contents = parse(text)
    expect(contents.entries.map((e) => `${e.seq} ${e.type}`)).toEqual(['1 message', '2 message', '3 tool/call', '4 tool/result', '5 turn/end'])
    expect(contents).toMatchObject({ validBytes: Buffer.byteLength(text), totalBytes: Buffer.byteLength(text), unterminated: false })
  })

  it('reads an empty log as no entries', () => {
    expect(parse('')).toEqual({ entries: [], validBytes: 0, totalBytes: 0, unterminated: false })
  })

  it('leaves out a torn last line and says where the whole lines end, in bytes', () => {
    const whole = Buffer.from(batchLines().join(''))
    const torn = Buffer.concat([whole, Buffer.from('{"type":"tool/result","message":"ü'), Buffer.from('😀').subarray(0, 2)])
    const contents = parse(torn)
    expect(contents.entries).toHaveLength(5)
    expect(contents).toMatchObject({ validBytes: whole.length, totalBytes: torn.length, unterminated: false })
  })

  it('keeps a whole last entry that only lacks its newline, and says so', () => {
    const lines = batchLines()
    const text = lines.join('').slice(0, -1)
    const contents = parse(text)
    expect(contents.entries).toHaveLength(5)
    expect(contents).toMatchObject({ validBytes: Buffer.byteLength(text), unterminated: true })
  })

  it('refuses a last line without newline that is JSON but not a valid entry', () => {
    expect(() => parse(`${batchLines().join('')}null`)).toThrow(`${FILE}:6: entry is null, expected an object with "seq" and "type"`)
  })

  it('throws a SessionLogError that carries the file, the line and the problem', () => {
    const error = (() => {
      try {
        parse(`${line({ type: 'turn/end', turn: 1, outcome: 'committed' }, 1)}{"seq":2}\n`)
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(SessionLogError)
    expect(error).toMatchObject({
      name: 'SessionLogError', file: FILE, line: 2,
      problem: '"type" is missing, expected "message", "tool/call", "tool/result", "turn/end", "state", "approval/request" or "approval/answer"',
      message: `${FILE}:2: "type" is missing, expected "message", "tool/call", "tool/result", "turn/end", "state", "approval/request" or "approval/answer"`,
    })
  })

  it.each([
    ['names another call of its turn', 2, { toolCallId: 'c2' }, 'tool/result for call 0 of turn 1 names "c2", but that call is "c1"'],
    ['names a call its turn does not have', 2, { index: 5 }, 'tool/result for call 5 of turn 1 names "c1", which no assistant message before it made'],
    ['comes before its assistant message', 0, {}, 'tool/result for call 0 of turn 1 names "c1", which no assistant message before it made'],
  ])('refuses a tool/result that %s', (_label, at, change, problem) => {
    const entries = batchEntriesWith(at, change)
    expect(() => parse(entries.map((entry, i) => line(entry, i + 1)).join(''))).toThrow(problem)
  })

  it('refuses a second tool/result for one call, and a tool/call that names another call', () => {
    const twice = [...batchLines(), line(batchEntries[3]!, 6)].join('')
    expect(() => parse(twice)).toThrow(`${FILE}:6: tool/result for call 0 of turn 1 comes after its call's result (a call has one)`)
    const call = batchEntries[2] as Extract<NewSessionEntry, { type: 'tool/call' }>
    const other = batchEntries.map((entry, i) => line(i === 2 ? { ...call, call: { ...call.call, id: 'c9' } } : entry, i + 1)).join('')
    expect(() => parse(other)).toThrow(`${FILE}:3: tool/call for call 0 of turn 1 names "c9", but that call is "c1"`)
  })

  it('refuses an empty line between entries', () => {
    const lines = batchLines()
    lines.splice(2, 0, '\n')
    expect(() => parse(lines.join(''))).toThrow(new SessionLogError(FILE, 3, 'empty line, expected a session entry'))
  })

  it('refuses a line that parses but is not valid UTF-8, even with a torn tail after it', () => {
    const lines = batchLines().map((l) => Buffer.from(l))
    const bad = Buffer.from(line({ type: 'message', message: { role: 'user', content: 'xx' } }, 2))
    bad[bad.indexOf('xx')] = 0xff
    const bytes = Buffer.concat([lines[0], bad, Buffer.from('{"seq":3,"ty')])
    expect(() => parse(bytes)).toThrow(new SessionLogError(FILE, 2, 'not valid UTF-8 text'))
  })

  it('is a valid log with any torn tail: exactly the valid prefix, byte for byte', () => {
    fc.assert(fc.property(logArb, tornTailArb, ({ stored, bytes }, tail) => {
      const contents = parse(Buffer.concat([bytes, tail]))
      expect(contents.entries).toEqual(stored)
      expect(contents.validBytes).toBe(bytes.length)
      expect(contents.totalBytes).toBe(bytes.length + tail.length)
    }), { numRuns: 300 })
  })
})

describe('a file that is not a session log', () => {
  it('is refused, not cut, when its only line is other text without a newline (a token file)', () => {
    expect(() => parse(Buffer.from('ghp_SuperSecretToken'))).toThrow('s.jsonl:1: not a JSON session entry, nor the start of one an interrupted append left (is this a session log?)')
    expect(parse(Buffer.from('{"seq":1,"ty')).validBytes).toBe(0)
    expect(parse(Buffer.from([0, 0, 0])).validBytes).toBe(0)
  })

  it('is left byte for byte as it was when jsonlSession is given it', async () => {
    const path = join(await tempDir('rein-token-'), 'token.txt')
    await writeFile(path, 'ghp_SuperSecretToken')
    const store = jsonlSession(path)
    await expect(store.load()).rejects.toThrow('not a JSON session entry')
    await store.close?.()
    expect(await readFile(path, 'utf8')).toBe('ghp_SuperSecretToken')
  })
})

describe('readSession', () => {
  it('reads a session file without changing it, torn tail included', async () => {
    const path = join(await tempDir('rein-read-'), 's.jsonl')
    const bytes = `${batchLines().join('')}{"seq":6,"type":"mess`
    await writeFile(path, bytes)
    const contents = await readSession(path)
    expect(contents.entries).toHaveLength(5)
    expect(contents.totalBytes - contents.validBytes).toBe(Buffer.byteLength('{"seq":6,"type":"mess'))
    expect(await readFile(path, 'utf8')).toBe(bytes)
  })

  it('refuses a FIFO at once, never waiting for a writer, and a directory, naming the path', async () => {
    const dir = await tempDir('rein-read-')
    execFileSync('mkfifo', [join(dir, 'fifo.jsonl')])
    await mkdir(join(dir, 'dir.jsonl'))
    await expect(readSession(join(dir, 'fifo.jsonl'))).rejects.toThrow(
      `session file ${join(dir, 'fifo.jsonl')} is a FIFO (named pipe), not a regular file: a session is kept in a regular file; give the path of one`)
    await expect(readSession(join(dir, 'dir.jsonl'))).rejects.toThrow(
      `session file ${join(dir, 'dir.jsonl')} is a directory, not a regular file`)
  })
})
