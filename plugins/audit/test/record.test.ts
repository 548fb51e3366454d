import type { ToolExec } from '@rein/kernel'
import { failure } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { auditRecord, createRedactor, cut } from '../src/index.js'

const exec = (args: Record<string, unknown>): ToolExec => ({
  id: 'c1', name: 'shot', arguments: args, signal: new AbortController().signal, startedAt: 1000, progress: () => {}, meta: {},
})
const options = { redact: createRedactor(), maxStringLength: 0, now: 1500 }

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

describe('cut', () => {
  it('cuts long strings with the exact count of what was left out, never inside a surrogate pair', () => {
    expect(cut({ a: 'abcdef', b: ['xy'] }, 4)).toEqual({ a: 'abcd…[2 more chars]', b: ['xy'] })
    expect(cut('ab😀', 3)).toBe('ab…[2 more chars]')
    expect(cut('abcdef', 0)).toBe('abcdef')
  })
})
