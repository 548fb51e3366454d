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

  it('stops at maxResults and says that more exist', async () => {
    const ws = await workspace()
    await ws.put({ 'a.txt': 'x1\nx2\nx3\nx4\n' })
    const result = await ws.call('grep', { pattern: 'x\\d', maxResults: 2 })
    expect(valueOf<GrepValue>(result)).toMatchObject({ truncated: true, matches: [{ line: 1 }, { line: 2 }] })
    expect(textOf(result)).toContain('stopped after 2 matches')
  })

  it('skips binary and oversized files and counts them', async () => {
    const ws = await workspace({ grepMaxFileBytes: 20 })
    await ws.put({ 'bin': Buffer.from('needle\0'), 'big.txt': `needle${'.'.repeat(30)}`, 'ok.txt': 'needle' })
    expect(valueOf(await ws.call('grep', { pattern: 'needle' })))
      .toEqual({ matches: [{ path: 'ok.txt', line: 1, text: 'needle' }], filesSearched: 1, filesSkipped: 2, truncated: false })
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
