import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { callMessage, textMessage, toolCall, validateTranscript } from '@rein/testing'
import { jsonlSession, redactedSession, redactEntry, sessionEntryProblem, type NewSessionEntry } from '../src/index.js'
import { gatedHarness, scriptedAgent, tempDir } from './helpers.js'

const TOKEN = 'tok-9f8e7d6c5b4a39281706'
/** A stand-in for `@rein/redact` (the agent imports no redactor; the loader hands one in). */
const redact = (text: string) => text.replaceAll(TOKEN, '[REDACTED]')

describe('redactedSession', () => {
  it('keeps no token a tool printed in the file, keeps calls as they ran, and the session resumes', async () => {
    const { ctx, gate } = await gatedHarness()
    const file = join(await tempDir('rein-redact-'), 's.jsonl')
    const session = redactedSession(jsonlSession(file), redact)
    gate.release('c1', `curl -H 'Authorization: Bearer ${TOKEN}' -> 200`)
    const { agent } = scriptedAgent(ctx, [
      callMessage([toolCall('c1', 'read', { header: `Bearer ${TOKEN}` })]),
      textMessage(`done; the token was ${TOKEN}`),
    ], { session })
    expect((await agent.run('go')).kind).toBe('completed')
    await session.close?.()

    const text = await readFile(file, 'utf8')
    const lines = text.trim().split('\n').map((line) => JSON.parse(line) as NewSessionEntry & { seq: number })
    const result = lines.find((e) => e.type === 'tool/result')!
    expect(result).toMatchObject({ message: { content: [{ type: 'text', text: `curl -H 'Authorization: Bearer [REDACTED]' -> 200` }] } })
    expect(lines.at(-1)).toMatchObject({ type: 'message', message: { role: 'assistant', content: 'done; the token was [REDACTED]' } })
    // The arguments a resume re-reads are stored as the call ran with them (documented).
    expect(lines.find((e) => e.type === 'tool/call')).toMatchObject({ call: { id: 'c1', name: 'read', arguments: { header: `Bearer ${TOKEN}` } } })
    expect(text.split(TOKEN)).toHaveLength(3)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    lines.forEach((entry, i) => expect(sessionEntryProblem(entry, i === 0 ? undefined : lines[i - 1].seq)).toBeUndefined())

    const resumed = redactedSession(jsonlSession(file), redact)
    const again = scriptedAgent(ctx, [textMessage('again')], { session: resumed })
    expect((await again.agent.run('once more')).kind).toBe('completed')
    await resumed.close?.()
    const shown = again.provider.requests[0].messages
    expect(validateTranscript(shown)).toEqual([])
    expect(shown.find((m) => m.role === 'tool')).toMatchObject({ content: [{ type: 'text', text: `curl -H 'Authorization: Bearer [REDACTED]' -> 200` }] })
    expect(gate.started).toEqual(['c1'])
  })

  it('never changes a call, a code, meta or a turn, and keeps every entry valid', () => {
    const text = fc.string({ maxLength: 20 }).map((s) => `${s}${TOKEN}${s}`)
    const entry = fc.oneof(
      fc.record({ type: fc.constant('message' as const), message: fc.oneof(
        fc.record({ role: fc.constant('user' as const), content: text }),
        fc.record({ role: fc.constant('assistant' as const), content: text, toolCalls: fc.constant([{ id: TOKEN, name: 'read', arguments: { a: TOKEN } }]) }),
      ), turn: fc.constant(1) }),
      fc.record({ type: fc.constant('tool/call' as const), turn: fc.constant(1), index: fc.nat(3), call: fc.record({ id: fc.constant(TOKEN), name: fc.constant('read'), arguments: fc.record({ a: text }) }) }),
      fc.record({
        type: fc.constant('tool/result' as const), turn: fc.constant(1), index: fc.nat(3), code: fc.constant(TOKEN), meta: fc.constant({ note: TOKEN }),
        message: fc.record({ role: fc.constant('tool' as const), toolCallId: fc.constant(TOKEN), isError: fc.boolean(), content: fc.array(fc.oneof(
          fc.record({ type: fc.constant('text' as const), text }),
          fc.record({ type: fc.constant('image' as const), data: fc.constant(TOKEN), mimeType: fc.constant('image/png') }),
        ), { maxLength: 3 }) }),
        additionalContexts: fc.array(fc.record({ type: fc.constant('text' as const), text }), { maxLength: 2 }),
      }),
    )
    fc.assert(fc.property(entry as fc.Arbitrary<NewSessionEntry>, (original) => {
      const before = JSON.stringify(original)
      const out = redactEntry(original, redact)
      expect(JSON.stringify(original)).toBe(before)
      expect(sessionEntryProblem({ ...out, seq: 1 })).toBeUndefined()
      const o = out as Record<string, any>
      if (out.type === 'tool/call') expect(out).toBe(original)
      if (out.type === 'tool/result') {
        expect([o.code, o.meta, o.message.toolCallId, o.turn, o.index]).toEqual([TOKEN, { note: TOKEN }, TOKEN, 1, (original as any).index])
        for (const block of o.message.content) if (block.type === 'text') expect(block.text).not.toContain(TOKEN)
      }
      if (out.type === 'message') {
        expect(o.message.content).not.toContain(TOKEN)
        expect(o.message.toolCalls).toEqual((original as any).message.toolCalls)
      }
    }), { numRuns: 200 })
  })
})
