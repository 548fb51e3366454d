import { describe, expect, it } from 'vitest'
import type { GrepValue } from '../src/index.js'
import { codeOf, textOf, valueOf, workspace } from './helpers.js'

describe('grep', () => {
  it('finds matching lines with their path and 1-based line number', async () => {
    const ws = await workspace()
    await ws.put({ 'a.ts': 'import x\nconst todo = 1\n// TODO later\n', 'b/c.md': 'nothing\nTODO: docs\n' })
    const result = await ws.call('grep', { pattern: 'TODO' })
    expect(valueOf(result)).toEqual({
      matches: [{ path: 'a.ts', line: 3, text: '// TODO later' }, { path: 'b/c.md', line: 2, text: 'TODO: docs' }],
      filesSearched: 2,
      filesSkipped: 0,
      truncated: false,
    })
    expect(textOf(result)).toContain('a.ts:3: // TODO later')
  })

  it('filters files by glob, searches one file, and can ignore case', async () => {
    const ws = await workspace()
    await ws.put({ 'a.ts': 'TODO\n', 'b.md': 'todo\n' })
    expect(valueOf<GrepValue>(await ws.call('grep', { pattern: 'todo', glob: '*.ts', ignoreCase: true })).matches)
      .toEqual([{ path: 'a.ts', line: 1, text: 'TODO' }])
    expect(valueOf<GrepValue>(await ws.call('grep', { pattern: 'todo', path: 'b.md' })).matches)
      .toEqual([{ path: 'b.md', line: 1, text: 'todo' }])
  })

  it('keeps the first maxResults matches and says exactly how many more there are', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': 'x1\nx2\nx3\nx4\n' })
    const result = await ws.call('grep', { pattern: 'x\\d', maxResults: 2 })
    expect(valueOf<GrepValue>(result)).toMatchObject({ truncated: true, omitted: 2, matches: [{ line: 1 }, { line: 2 }] })
    expect(textOf(result)).toBe([
      '4 matches for /x\\d/ in 1 file searched; the first 2 are listed:',
      'a.txt:1: x1',
      'a.txt:2: x2',
      '[2 more matches not listed; narrow the pattern, path or glob, or raise maxResults (up to 1000)]',
    ].join('\n'))
  })

  it('counts the matches it does not list exactly, across files and batches', async () => {
    const ws = await workspace()
    const filler = `${'y'.repeat(1000)}\n`.repeat(700) // ~700 KB per file: the three files need two batches
    await ws.put({ 'a.txt': `x\n${filler}x\nx\n`, 'b.txt': `${filler}x\nx\nx\n`, 'c.txt': `x\nx\n${filler}x\n` })
    const result = await ws.call('grep', { pattern: '^x$', maxResults: 4 })
    const value = valueOf<GrepValue>(result)
    expect(value.matches.map((m) => `${m.path}:${m.line}`)).toEqual(['a.txt:1', 'a.txt:702', 'a.txt:703', 'b.txt:701'])
    expect(value).toMatchObject({ truncated: true, omitted: 5, filesSearched: 3 })
    expect(textOf(result)).toMatch(/^9 matches for \/\^x\$\/ in 3 files searched; the first 4 are listed:\n/)
    expect(textOf(result)).toMatch(/\n\[5 more matches not listed; narrow the pattern, path or glob, or raise maxResults \(up to 1000\)\]$/)
  })

  it('does not suggest raising maxResults past its largest value', async () => {
    const ws = await workspace({ maxEntries: 1 })
    await ws.put({ 'a.txt': 'x\nx\n' })
    const result = await ws.call('grep', { pattern: 'x', maxResults: 1 })
    expect(textOf(result)).toBe('2 matches for /x/ in 1 file searched; the first 1 is listed:\na.txt:1: x\n'
      + '[1 more match not listed; narrow the pattern, path or glob]')
  })

  it('skips binary and oversized files and counts them', async () => {
    const ws = await workspace({ grepMaxFileBytes: 20 })
    await ws.put({ 'bin': Buffer.from('needle\0'), 'big.txt': `needle${'.'.repeat(30)}`, 'ok.txt': 'needle' })
    const result = await ws.call('grep', { pattern: 'needle' })
    expect(valueOf(result))
      .toEqual({ matches: [{ path: 'ok.txt', line: 1, text: 'needle' }], filesSearched: 1, filesSkipped: 2, truncated: false })
    expect(textOf(result)).toBe('1 match for /needle/ in 1 file searched:\nok.txt:1: needle\n[2 binary or oversized files skipped]')
  })

  it('cuts very long matching lines', async () => {
    const ws = await workspace()
    await ws.put({ 'min.js': `needle${'x'.repeat(2000)}` })
    const [match] = valueOf<GrepValue>(await ws.call('grep', { pattern: 'needle' })).matches
    expect(match.text.length).toBeLessThan(600)
    expect(match.text).toContain('line cut at 500 characters')
  })

  it('refuses an invalid regular expression', async () => {
    const ws = await workspace()
    const result = await ws.call('grep', { pattern: '(unclosed' })
    expect(codeOf(result)).toBe('INVALID_PATTERN')
    expect(textOf(result)).toContain('not a valid regular expression')
  })
})
