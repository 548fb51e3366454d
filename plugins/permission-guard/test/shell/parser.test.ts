import { describe, expect, it } from 'vitest'
import { parseBash } from '../../src/shell/parser.js'
import { wordText, type ParseResult } from '../../src/shell/syntax.js'

/** Each command's words as text, and the text of its standard input if it has one. */
function commands(result: ParseResult) {
  if (!result.ok) throw new Error(result.reason)
  return result.commands.map((c) => ({ words: c.words.map(wordText), input: c.input && wordText(c.input) }))
}

describe('parseBash', () => {
  it('leaves process-wide settings as they were after loading the parser', () => {
    const limit = Error.stackTraceLimit
    const hadRequire = Object.hasOwn(globalThis, 'require')
    expect(parseBash('true').ok).toBe(true)
    expect(Error.stackTraceLimit).toBe(limit)
    expect(Object.hasOwn(globalThis, 'require')).toBe(hadRequire)
  })

  it('reports a syntax error with its line and column instead of guessing', () => {
    expect(parseBash("echo 'a")).toEqual({ ok: false, reason: "1:6: reached EOF without closing quote '" })
    expect(parseBash('if true; then rm x')).toMatchObject({ ok: false })
    expect(parseBash('a &&')).toMatchObject({ ok: false })
  })

  it('hands a here-document to its command as input: literal when the delimiter is quoted', () => {
    expect(commands(parseBash("sh <<'EOF'\nrm \\$x $(id)\nEOF"))).toEqual([{ words: ['sh'], input: 'rm \\$x $(id)\n' }])
    expect(commands(parseBash('sh <<EOF\nrm \\$x\nEOF'))).toEqual([{ words: ['sh'], input: 'rm $x\n' }])
    expect(commands(parseBash('sh <<< "rm x"'))).toEqual([{ words: ['sh'], input: 'rm x' }])
    expect(commands(parseBash('sh 3<<< "rm x"'))).toEqual([{ words: ['sh'], input: undefined }])
  })

  it('tells whether a redirection writes to a file', () => {
    const writes = (line: string) => (parseBash(line) as { writes: boolean }).writes
    for (const line of ['a > f', 'a >> f', 'a >| f', 'a &> f', 'a &>> f', 'a <> f', 'a >& f', 'a 2> f', '(a) > f', 'a > $F', 'echo $(b > f)']) {
      expect([line, writes(line)]).toEqual([line, true])
    }
    for (const line of ['a < f', 'a 2>&1', 'a >&2', 'a > /dev/null', 'a &> /dev/null', 'a 2>&-', 'a <<< x', 'a <<EOF\nx\nEOF']) {
      expect([line, writes(line)]).toEqual([line, false])
    }
  })

  it('keeps non-ASCII text intact', () => {
    expect(commands(parseBash('echo "héllo $(printf ü)" ✓'))).toEqual([
      { words: ['echo', 'héllo $(printf ü)', '✓'], input: undefined },
      { words: ['printf', 'ü'], input: undefined },
    ])
  })
})
