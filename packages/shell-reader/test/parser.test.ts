import { describe, expect, it } from 'vitest'
import { parseBash } from '../src/parser.js'
import { staticText, wordText, type ParseResult, type SimpleCommand } from '../src/syntax.js'

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

  it('hands over assignments, alone or before a command, each as one word', () => {
    const result = parseBash('A=1 B="$(id)" git status; C=2; a[0]=x; a[i]=y') as { commands: SimpleCommand[] }
    expect(result.commands.map((c) => ({ words: c.words.map(wordText), assigns: c.assigns?.map(wordText) }))).toEqual([
      { words: ['git', 'status'], assigns: ['A=1', 'B=$(id)'] },
      { words: ['id'], assigns: [] },
      { words: [], assigns: ['C=2'] },
      { words: [], assigns: ['a[0]=x'] },
      { words: [], assigns: ['a[i]=y'] },
    ])
    expect(staticText(result.commands[4].assigns![0])).toBeUndefined()
  })

  it('marks expansions inside double quotes as quoted', () => {
    const result = parseBash('echo "$x" $y "a$(b)"') as { commands: SimpleCommand[] }
    expect(result.commands[0].words.slice(1).map((w) => w.parts)).toEqual([
      [{ kind: 'dynamic', source: '$x', quoted: true }],
      [{ kind: 'dynamic', source: '$y' }],
      [{ kind: 'literal', text: 'a', quoted: true }, { kind: 'dynamic', source: '$(b)', quoted: true }],
    ])
  })

  it('tells a here-document on another descriptor apart, and passes a compound command\'s input inside', () => {
    const fed = (line: string) => (parseBash(line) as { commands: SimpleCommand[] }).commands
      .map((c) => ({ words: c.words.map(wordText), input: c.input && wordText(c.input), other: c.otherInput }))
    expect(fed("sh 3<<< 'rm x'")).toEqual([{ words: ['sh'], input: undefined, other: true }])
    expect(fed("{ sh; ls; } <<< 'rm x'")).toEqual([
      { words: ['sh'], input: 'rm x', other: false },
      { words: ['ls'], input: 'rm x', other: false },
    ])
    expect(fed("{ sh <<< a; } <<< b")).toEqual([{ words: ['sh'], input: 'a', other: false }])
  })

  it('drops the -- that bash takes as part of time', () => {
    const first = (line: string) => (parseBash(line) as { commands: SimpleCommand[] }).commands.map((c) => c.words.map(wordText))
    expect(first('time -- rm x')).toEqual([['rm', 'x']])
    expect(first('time -p -- rm x')).toEqual([['rm', 'x']])
    expect(first('echo -- x')).toEqual([['echo', '--', 'x']])
  })

  it('hands over code bash evaluates at run time as a command of one dynamic word', () => {
    const result = parseBash('(( x )); echo ${!y}') as { commands: SimpleCommand[] }
    expect(result.commands).toEqual([
      { words: [{ parts: [{ kind: 'dynamic', source: '(( x ))' }] }] },
      { words: [{ parts: [{ kind: 'literal', text: 'echo', quoted: false }] }, { parts: [{ kind: 'dynamic', source: '${!y}' }] }], assigns: [], input: undefined, otherInput: false },
      { words: [{ parts: [{ kind: 'dynamic', source: '${!y}' }] }] },
    ])
  })

  it('keeps non-ASCII text intact', () => {
    expect(commands(parseBash('echo "héllo $(printf ü)" ✓'))).toEqual([
      { words: ['echo', 'héllo $(printf ü)', '✓'], input: undefined },
      { words: ['printf', 'ü'], input: undefined },
    ])
  })
})
