import type { ToolExec } from '@rein/kernel'
import { failure } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { createRedactor, redactValue } from '@rein/redact'
import { auditRecord, cut } from '../src/index.js'

const exec = (args: Record<string, unknown>): ToolExec => ({
  id: 'c1', name: 'shot', arguments: args, signal: new AbortController().signal, startedAt: 1000, progress: () => {}, meta: {}, idempotencyKey: 'k1',
})
const text = createRedactor()
const options = { redact: (value: unknown) => redactValue(value, text), maxStringLength: 0, now: 1500 }

describe('auditRecord', () => {
  it('sizes text as UTF-8 bytes and images by their data length', () => {
    const record = auditRecord(exec({ q: 'é' }), {
      isError: false, value: null,
      content: [{ type: 'text', text: 'ünï' }, { type: 'image', data: 'QUJD', mimeType: 'image/png' }],
    }, 'allow', options)
    expect(record).toMatchObject({ argBytes: 10, resultBytes: 5 + 4, durationMs: 500, ts: new Date(1500).toISOString() })
  })

  it('records a failure code, a missing decision as null, and leaves absent fields out of the JSON', () => {
    const record = auditRecord(exec({}), failure('UNKNOWN_TOOL', 'unknown tool "shot"'), undefined, options)
    expect(JSON.parse(JSON.stringify(record))).toEqual({
      ts: new Date(1500).toISOString(), id: 'c1', name: 'shot', arguments: {}, decision: null,
      isError: true, code: 'UNKNOWN_TOOL', durationMs: 500, argBytes: 2, resultBytes: Buffer.byteLength('Error: unknown tool "shot"'),
    })
  })
})

describe('auditRecord on model- and tool-supplied strings', () => {
  const GH = `ghp_${'A'.repeat(36)}`
  const SK = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUV'

  it('redacts every string field, not only the arguments: id, name, agent, parent and code', () => {
    const call: ToolExec = { ...exec({}), id: `id-${GH}`, name: SK, agent: `agent-${GH}`, parent: `parent ${SK}` }
    const record = auditRecord(call, failure(GH, 'boom'), undefined, options)
    expect(record).toMatchObject({
      id: 'id-[REDACTED]', name: '[REDACTED]', agent: 'agent-[REDACTED]', parent: 'parent [REDACTED]', code: '[REDACTED]',
    })
    expect(JSON.stringify(record)).not.toMatch(/ghp_|sk-proj/)
  })

  it('cuts long id, name, agent, parent and code like argument strings', () => {
    const long = 'x'.repeat(10)
    const call: ToolExec = { ...exec({}), id: long, name: long, agent: long, parent: long }
    const record = auditRecord(call, failure(long, 'boom'), undefined, { ...options, maxStringLength: 4 })
    for (const field of ['id', 'name', 'agent', 'parent', 'code'] as const) expect(record[field]).toBe('xxxx…[6 more chars]')
  })
})

describe('cut', () => {
  it('cuts long object keys too, at any depth', () => {
    expect(cut({ ['k'.repeat(10)]: { ['j'.repeat(6)]: 'v' }, ok: 1 }, 4))
      .toEqual({ 'kkkk…[6 more chars]': { 'jjjj…[2 more chars]': 'v' }, ok: 1 })
  })

  it('keeps every value when keys cut to the same text, later ones numbered', () => {
    expect(Object.entries(cut({ 'path-one!': 'a', 'path-two!': 'b' }, 5) as object))
      .toEqual([['path-…[4 more chars]', 'a'], ['path-…[4 more chars] (2)', 'b']])
  })

  it('cuts long strings with the exact count of what was left out, never inside a surrogate pair', () => {
    expect(cut({ a: 'abcdef', b: ['xy'] }, 4)).toEqual({ a: 'abcd…[2 more chars]', b: ['xy'] })
    expect(cut('ab😀', 3)).toBe('ab…[2 more chars]')
    expect(cut('abcdef', 0)).toBe('abcdef')
  })
})
