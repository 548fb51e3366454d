import type { Json, ToolExec, ToolExecutionResult } from '@rein/kernel'
import { createRedactor, redactValue } from '@rein/redact'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lineWriter, quickLines } from '../src/line.js'
import { auditRecord, isoClock } from '../src/record.js'

const text = createRedactor()
const redact = (value: unknown) => redactValue(value, text)

/** The slow path: the record, redacted and cut, as JSON. */
function slowLine(exec: ToolExec, result: ToolExecutionResult, now: number, maxStringLength: number): string {
  return JSON.stringify(auditRecord(exec, result, exec.decision, { redact, maxStringLength, now }))
}

// Secrets the built-in patterns take out, look-alikes they leave, and text that needs escaping.
const SECRETS = [
  `sk-proj-${'A1b2'.repeat(5)}`, `ghp_${'x'.repeat(36)}`, 'AKIAIOSFODNN7EXAMPLE', 'Bearer abcdefgh.ijkl',
  `Basic ${Buffer.from('user:pw').toString('base64')}`, 'https://admin:hunter2@example.com/x',
  '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----', 'MY_KEY_sk-abcdefghijklmnopqrst',
]
// Keys whose value is redacted whatever it is (as keys), and spellings of them.
const SECRET_KEYS = ['password', 'X-Api-Key', 'to\nken', 'client.secret', 'Authorization', 'max_tokens']
const LOOKALIKES = ['Basic settings', 'bearer', 'ask-me', 'sk-short', 'https://example.com', 'ghp_', 'é€😀', '"\\\n\t\u0001', '\ud800']
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8, unit: 'binary' }) },
  { weight: 2, arbitrary: fc.constantFrom(...SECRETS) },
  { weight: 2, arbitrary: fc.constantFrom(...LOOKALIKES) },
  { weight: 1, arbitrary: fc.constantFrom(...SECRET_KEYS) },
)
const str = fc.array(piece, { maxLength: 3 }).map((pieces) => pieces.join(''))
const json: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    str, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(str, tie('value'), { maxKeys: 3 }),
  ),
})).value
const args = fc.dictionary(str, json, { maxKeys: 4 })
const count = fc.option(fc.nat(50), { nil: undefined })

const exec = fc.record({
  id: str, name: str, turn: count, step: count, index: count,
  agent: fc.option(str, { nil: undefined }), parent: fc.option(str, { nil: undefined }),
  arguments: args, originalArguments: fc.option(args, { nil: undefined }),
  decision: fc.option(fc.constantFrom('allow', 'deny', 'ask') as fc.Arbitrary<'allow' | 'deny' | 'ask'>, { nil: undefined }),
  startedAt: fc.integer({ min: 1_700_000_000_000, max: 1_800_000_000_000 }),
}, { requiredKeys: ['id', 'name', 'arguments', 'startedAt'] }).map((fields) => ({
  ...fields, signal: new AbortController().signal, progress: () => {}, meta: {}, idempotencyKey: 'k',
}) as unknown as ToolExec)

const content = fc.array(fc.oneof(
  str.map((t) => ({ type: 'text' as const, text: t })),
  fc.base64String({ maxLength: 12 }).map((data) => ({ type: 'image' as const, data, mimeType: 'image/png' })),
), { maxLength: 3 })
const meta = fc.option(fc.record({
  attempts: fc.nat(5),
  cacheHit: fc.boolean(),
  approval: fc.record({ answer: str, at: fc.integer({ min: 0, max: 4_000_000_000_000 }), by: str, id: str }, { requiredKeys: ['answer'] }),
}, { requiredKeys: [] }), { nil: undefined })
const result: fc.Arbitrary<ToolExecutionResult> = fc.oneof(
  fc.record({ content, meta }).map(({ content, meta }) => ({ isError: false as const, value: null, content, ...(meta && { meta }) })),
  fc.record({ content, meta, code: fc.option(str, { nil: undefined }) }).map(({ content, meta, code }) => ({
    isError: true as const, content, error: { message: 'failed', ...(code !== undefined && { info: { code } }) }, ...(meta && { meta }),
  })),
) as fc.Arbitrary<ToolExecutionResult>
const maxStringLength = fc.constantFrom(0, 4, 16, 4096)

describe('the audit line', () => {
  it('is the slow path\'s line byte for byte, secrets and cuts included, for any call', () => {
    fc.assert(fc.property(exec, result, fc.nat(100_000), maxStringLength, (call, outcome, later, max) => {
      const now = call.startedAt + later
      const slow = slowLine(call, outcome, now, max)
      const quick = quickLines(isoClock(), max)(call, outcome, call.decision, now)
      if (quick !== undefined) expect(quick).toBe(slow)
      expect(lineWriter({ redact: [], maxStringLength: max })(call, outcome, now)).toBe(slow)
    }), { numRuns: 2000 })
  })

  it('stays the slow path\'s line when one writer sees many calls (remembered strings change)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(exec, result), { minLength: 2, maxLength: 8 }), maxStringLength, (calls, max) => {
      const quick = quickLines(isoClock(), max)
      const write = lineWriter({ redact: [], maxStringLength: max })
      for (const [call, outcome] of calls) {
        const slow = slowLine(call, outcome, call.startedAt + 5, max)
        const line = quick(call, outcome, call.decision, call.startedAt + 5)
        if (line !== undefined) expect(line).toBe(slow)
        expect(write(call, outcome, call.startedAt + 5)).toBe(slow)
      }
    }), { numRuns: 300 })
  })

  it('writes a call with nothing to redact or cut the quick way, and leaves one with a secret to the slow path', () => {
    const base = {
      id: 'call_1', name: 'read', turn: 1, index: 0, agent: 'agent', arguments: { path: 'a.ts', line: 3 }, decision: 'allow',
      startedAt: 1000, signal: new AbortController().signal, progress: () => {}, meta: {}, idempotencyKey: 'k',
    } as unknown as ToolExec
    const ok: ToolExecutionResult = { isError: false, value: null, content: [{ type: 'text', text: 'x' }], meta: { attempts: 2 } }
    const quick = quickLines(isoClock(), 4096)
    expect(quick(base, ok, 'allow', 1500)).toBe(slowLine(base, ok, 1500, 4096))
    const leaky = { ...base, arguments: { header: 'Bearer abcdefghijkl' } } as ToolExec
    expect(quick(leaky, ok, 'allow', 1500)).toBeUndefined()
    expect(lineWriter({ redact: [], maxStringLength: 4096 })(leaky, ok, 1500)).toContain('Bearer [REDACTED]')
    expect(quickLines(isoClock(), 4)(base, ok, 'allow', 1500)).toBeUndefined()
  })

  it('redacts the value under a key that names a secret, however it is spelled: such a call never takes the quick way', () => {
    const ok: ToolExecutionResult = { isError: false, value: null, content: [] }
    for (const key of ['password', 'X-Api-Key', 'to\nken', 'db.pass word']) {
      const call = {
        id: 'c1', name: 'login', arguments: { user: 'ann', [key]: 'hunter2' },
        startedAt: 0, signal: new AbortController().signal, progress: () => {}, meta: {}, idempotencyKey: 'k',
      } as unknown as ToolExec
      expect([key, quickLines(isoClock(), 4096)(call, ok, undefined, 10)]).toEqual([key, undefined])
      const line = lineWriter({ redact: [], maxStringLength: 4096 })(call, ok, 10)
      expect(line).not.toContain('hunter2')
      expect(line).toBe(slowLine(call, ok, 10, 4096))
    }
  })

  it('keeps both arguments whose keys redact or cut alike; such a call never takes the quick way', () => {
    const call = {
      id: 'c1', name: 'bash', arguments: { [`sk-${'A'.repeat(20)}`]: 'rm -rf /', [`sk-${'B'.repeat(20)}`]: 'ls', 'path-one!': 1, 'path-two!': 2 },
      startedAt: 0, signal: new AbortController().signal, progress: () => {}, meta: {}, idempotencyKey: 'k',
    } as unknown as ToolExec
    const ok: ToolExecutionResult = { isError: false, value: null, content: [] }
    for (const max of [0, 12]) {
      expect(quickLines(isoClock(), max)(call, ok, undefined, 10)).toBeUndefined()
      const line = lineWriter({ redact: [], maxStringLength: max })(call, ok, 10)
      expect(line).toBe(slowLine(call, ok, 10, max))
      expect(Object.values(JSON.parse(line).arguments)).toEqual(['rm -rf /', 'ls', 1, 2])
    }
  })

  it('names the error, redacted, when the record cannot be built (both paths throw alike)', () => {
    const call = {
      id: 'c1', name: `sk-${'a'.repeat(20)}`, arguments: { n: 1n }, startedAt: 0, signal: new AbortController().signal,
      progress: () => {}, meta: {}, idempotencyKey: 'k',
    } as unknown as ToolExec
    const ok: ToolExecutionResult = { isError: false, value: null, content: [] }
    expect(quickLines(isoClock(), 0)(call, ok, undefined, 10)).toBeUndefined()
    const line = JSON.parse(lineWriter({ redact: [], maxStringLength: 0 })(call, ok, 10))
    expect(line).toMatchObject({ id: 'c1', name: '[REDACTED]', auditError: expect.stringContaining('BigInt') })
  })

  it('redacts configured patterns too (they never take the quick way)', () => {
    const call = {
      id: 'c1', name: 'n', arguments: { q: 'corp-1234' }, startedAt: 0, signal: new AbortController().signal,
      progress: () => {}, meta: {}, idempotencyKey: 'k',
    } as unknown as ToolExec
    const line = lineWriter({ redact: ['corp-[0-9]+'], maxStringLength: 0 })(call, { isError: false, value: null, content: [] }, 10)
    expect(JSON.parse(line).arguments).toEqual({ q: '[REDACTED]' })
  })
})
