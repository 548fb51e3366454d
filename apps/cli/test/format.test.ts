/** One-line renderings of calls and results. */
import { failure } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { argsPreview, clip, formatBytes, formatMs, notesOf, outcomeOf, wrap } from '../src/progress/format.js'

describe('progress formatting', () => {
  it('previews arguments as compact JSON, parsing a raw JSON string, cut with an ellipsis', () => {
    expect(argsPreview('{ "path": "a.txt",\n "n": 2 }')).toBe('{"path":"a.txt","n":2}')
    expect(argsPreview('')).toBe('{}')
    expect(argsPreview('not json')).toBe('not json')
    expect(argsPreview({ text: 'x'.repeat(100) }, 20)).toBe(`{"text":"${'x'.repeat(10)}…`)
    expect(clip('abc', 0)).toBe('')
  })

  it('names the outcome and notes what the plugins did', () => {
    const retried = { isError: false as const, value: 'v', content: [], meta: { attempts: 3, cacheHit: true, spilled: { bytes: 12_345 } } }
    expect(outcomeOf(retried)).toBe('ok')
    expect(notesOf(retried)).toEqual(['cache hit', 'retried: 3 attempts', 'spilled 12.3 kB'])
    const denied = failure('TOOL_DENIED', 'not here\nsecond line')
    expect(outcomeOf(denied)).toBe('TOOL_DENIED')
    expect(notesOf(denied)).toEqual(['not here'])
  })

  it('wraps text at spaces into lines of the given widths, splitting only words longer than a line, dropping nothing', () => {
    expect(wrap('timed out after 500ms', 10)).toEqual(['timed out', 'after', '500ms'])
    expect(wrap('ok 3ms · a fairly long reason', 8, 20)).toEqual(['ok 3ms ·', 'a fairly long reason'])
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij'])
    expect(wrap('', 5)).toEqual([''])
    expect(notesOf(failure('TOOL_DENIED', 'x'.repeat(200)), Infinity)).toEqual(['x'.repeat(200)])
  })

  it('formats times and sizes for people', () => {
    expect([formatMs(12.4), formatMs(999), formatMs(1234)]).toEqual(['12ms', '999ms', '1.23s'])
    expect([formatBytes(999), formatBytes(12_345), formatBytes(4_100_000)]).toEqual(['999 B', '12.3 kB', '4.1 MB'])
  })
})
