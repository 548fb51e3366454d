import { execFileSync } from 'node:child_process'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_BRACE_WORDS } from '../src/braces.js'
import { parseBash } from '../src/parser.js'
import { staticText, type Word } from '../src/syntax.js'

/** The words the reader gives the command `printf '<%s>' X <word>`, after `printf`, its format and `X`. */
function readWords(word: string): Array<string | undefined> {
  const result = parseBash(`printf '<%s>' X ${word}`)
  if (!result.ok) throw new Error(result.reason)
  return result.commands[0]!.words.slice(3).map(staticText)
}

/** What bash expands `word` to: the arguments `printf` is given after `X`. */
function bashWords(word: string): string[] {
  const out = execFileSync('/bin/bash', ['-c', `printf '<%s>' X ${word}`], { encoding: 'utf8' })
  return [...out.matchAll(/<([^<>]*)>/g)].map((m) => m[1]!).slice(1)
}

describe('brace expansion', () => {
  it('expands as bash does: alternatives, sequences, nesting, quoting, and what is no expression', () => {
    const cases: Array<[string, string[]]> = [
      ['git{push,}', ['gitpush', 'git']],
      ['{push,}', ['push']],
      ["''{a,}", ['a', '']],
      ['a{1..3}b', ['a1b', 'a2b', 'a3b']],
      ['{01..10..4}', ['01', '05', '09']],
      ['{-3..3..2}', ['-3', '-1', '1', '3']],
      ['{c..a}', ['c', 'b', 'a']],
      ['{1..5..0}', ['1', '2', '3', '4', '5']],
      ['{a,b}{1,2}', ['a1', 'a2', 'b1', 'b2']],
      ['{x{a,b}y}', ['{xay}', '{xby}']],
      ['{a{b,c}', ['{ab', '{ac']],
      ['{a}', ['{a}']],
      ['{}', ['{}']],
      ['"{a,b}"', ['{a,b}']],
      ['\\{a,b\\}', ['{a,b}']],
      ['{a\\,b,c}', ['a,b', 'c']],
      ["{'a,b',c}", ['a,b', 'c']],
      ['{a,b}}', ['a}', 'b}']],
      ['a{},}b', ['a}b', 'ab']],
      ['{},a}', ['{},a}']],
      ['{1..x}{a,b}', ['{1..x}a', '{1..x}b']],
      ['{a{b,c},d}', ['ab', 'ac', 'd']],
    ]
    for (const [word, words] of cases) expect([word, readWords(word)]).toEqual([word, words])
  })

  it('carries an expansion known only at run time into every word', () => {
    const result = parseBash('echo {$a,b}c')
    if (!result.ok) throw new Error(result.reason)
    const words = result.commands[0]!.words.slice(1)
    expect(words.map((w: Word) => w.parts.map((p) => (p.kind === 'literal' ? p.text : `<${p.source}>`)).join(''))).toEqual(['<$a>c', 'bc'])
  })

  it('reads a word that would give too many words, or is too long to scan, as one word known only at run time', () => {
    expect(readWords(`{1..${MAX_BRACE_WORDS + 1}}`)).toEqual([undefined])
    expect(readWords(`{1..${MAX_BRACE_WORDS}}`)).toHaveLength(MAX_BRACE_WORDS)
    expect(readWords('{a,b}'.repeat(11))).toEqual([undefined])
    expect(readWords('{1..99999999999999999999}')).toEqual([undefined])
    expect(readWords('{1..1}'.repeat(100))).toEqual(['1'.repeat(100)])
    // Each unquoted `{` may start a scan to the word's end: a word of 100,000 is not scanned.
    expect(readWords(`${'{'.repeat(100_000)}a`)).toEqual([undefined])
    expect(readWords(`x${'{a,'.repeat(30)}`)).toEqual([`x${'{a,'.repeat(30)}`])
  })

  it('agrees with bash on random words of braces, commas, dots, digits and quotes', () => {
    const token = fc.constantFrom('a', 'b', '1', '2', '.', '..', ',', '{', '}', "','", "'{'", '\\,', '\\{', '\\}', '""', '"a,b"')
    fc.assert(fc.property(fc.array(token, { minLength: 1, maxLength: 12 }), (tokens) => {
      const word = tokens.join('')
      expect([word, readWords(word)]).toEqual([word, bashWords(word)])
    }), { numRuns: 400 })
  })
})
