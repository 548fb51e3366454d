import { describe, expect, it } from 'vitest'
import { matchLines, MAX_LINE_CHARS } from '../src/match.mjs'

describe('matchLines', () => {
  it('gives every matching line of every text with its text index and 1-based line number', () => {
    expect(matchLines({ pattern: 'b', flags: '', texts: ['a\nb\r\nab', '', 'b'] })).toEqual([
      { file: 0, line: 2, text: 'b' },
      { file: 0, line: 3, text: 'ab' },
      { file: 2, line: 1, text: 'b' },
    ])
  })

  it('applies the flags and never counts the empty piece after a final line end', () => {
    expect(matchLines({ pattern: '^$', flags: '', texts: ['x\n\n'] })).toEqual([{ file: 0, line: 2, text: '' }])
    expect(matchLines({ pattern: 'todo', flags: 'i', texts: ['TODO\n'] })).toEqual([{ file: 0, line: 1, text: 'TODO' }])
  })

  it('cuts a long matching line and says where', () => {
    const [found] = matchLines({ pattern: 'n', flags: '', texts: [`n${'x'.repeat(2 * MAX_LINE_CHARS)}`] })
    expect(found.text).toBe(`n${'x'.repeat(MAX_LINE_CHARS - 1)}… [line cut at ${MAX_LINE_CHARS} characters]`)
  })

  it('never cuts a character in two: an emoji across the cut is left out whole', () => {
    const line = `n${'x'.repeat(MAX_LINE_CHARS - 2)}😀${'y'.repeat(10)}` // the emoji's halves at MAX-1 and MAX
    const [found] = matchLines({ pattern: 'n', flags: '', texts: [line] })
    expect(found.text).toBe(`n${'x'.repeat(MAX_LINE_CHARS - 2)}… [line cut at ${MAX_LINE_CHARS} characters]`)
    expect(found.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/) // no half of a pair
    const [before] = matchLines({ pattern: 'n', flags: '', texts: [`n${'x'.repeat(MAX_LINE_CHARS - 3)}😀${'y'.repeat(10)}`] })
    expect(before.text).toBe(`n${'x'.repeat(MAX_LINE_CHARS - 3)}😀… [line cut at ${MAX_LINE_CHARS} characters]`)
  })
})
